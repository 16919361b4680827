# The op vocabulary: installed for byocc's import search, and compiled
# into libbyoc so that the runtime knows every op.
dist_pkgdata_DATA += lib/relay.byoc
