#!/bin/sh
# byoc --plugin: targets from a shared library built from a .byoc file
# (tests/plugin/testnpu.byoc) are listed by `targets`, with their runtime
# and lowering passes, and used by `partition`; a missing library, one without the entry point, and one
# whose target name is already registered each fail with exit status 1 and
# a clear message.
set -u
: "${BYOC:?}" "${top_srcdir:?}" "${top_builddir:?}"
libs=$top_builddir/tests/plugin/.libs
plugin=$libs/libtestnpu.so
[ -f "$plugin" ] || { echo "SKIP: no shared plugin (built with --disable-shared?)"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
has() { grep -q -- "$2" "$1"; }
model=$top_srcdir/examples/models/resnet_bottleneck.relay

# targets: the plugin's devices and targets after the bundled ones.
if "$BYOC" --plugin "$plugin" targets >"$tmp/out" 2>"$tmp/err"; then
    has "$tmp/out" '^device testnpu:' && has "$tmp/out" '^  testnpu_conv ' &&
        has "$tmp/out" 'option tile: int = 16' && has "$tmp/out" '^  testhost_native ' &&
        has "$tmp/out" '^link testhost <-> testnpu' && has "$tmp/out" '^  tensorrt ' &&
        ok "targets lists plugin targets" || { bad "targets lists plugin targets"; cat "$tmp/out"; }
else
    bad "targets: exit status"; cat "$tmp/err"
fi
# The plugin target's runtime and passes, and its refinement's, inherited.
has "$tmp/out" '^      runtime "testnpu_driver"$' && has "$tmp/out" '^      lower testnpu_emit$' &&
    has "$tmp/out" '^      lower after testnpu_link$' && has "$tmp/out" '^    testnpu_conv_wide ' &&
    has "$tmp/out" '^        runtime "testnpu_driver"$' &&
    has "$tmp/out" '^        lower testnpu_emit (from testnpu_conv)$' &&
    ok "targets lists runtime and passes" || { bad "targets lists runtime and passes"; cat "$tmp/out"; }
"$BYOC" targets >"$tmp/plain" 2>&1
has "$tmp/plain" testnpu && bad "targets without --plugin has no plugin targets" ||
    ok "targets without --plugin has no plugin targets"

# partition on a plugin target, options of the plugin target work too.
if "$BYOC" --plugin="$plugin" partition "$model" -t testnpu_conv --option testnpu_conv:tile=32 \
    >"$tmp/out" 2>"$tmp/err"; then
    has "$tmp/out" testnpu_conv && ok "partition -t testnpu_conv" ||
        { bad "partition -t testnpu_conv: no plugin partition"; cat "$tmp/out"; }
else
    bad "partition -t testnpu_conv: exit status"; cat "$tmp/err"
fi
"$BYOC" --plugin "$plugin" partition "$model" -t testnpu_conv -f json >"$tmp/out" 2>"$tmp/err" &&
    has "$tmp/out" '"testnpu_conv"' && ok "partition json" || { bad "partition json"; cat "$tmp/err"; }
# The bundled targets still work with a plugin loaded.
# A quoted pattern name is the composite name in the outputs, as written.
"$BYOC" --plugin "$plugin" partition "$model" -t testnpu_conv -f json >"$tmp/out" 2>"$tmp/err" &&
    has "$tmp/out" '"pattern": "testnpu.conv_bn_relu"' && ok "quoted composite name in json" ||
    { bad "quoted composite name in json"; cat "$tmp/err"; }
"$BYOC" --plugin "$plugin" partition "$model" -t testnpu_conv -f relay >"$tmp/out" 2>"$tmp/err" &&
    has "$tmp/out" 'Composite="testnpu.conv_bn_relu"' && ok "quoted composite name in relay" ||
    { bad "quoted composite name in relay"; cat "$tmp/err"; }
# ... and in the annotated ONNX model (conv_bn_relu.onnx: Conv,
# BatchNormalization, Relu), when byoc reads ONNX.
if [ -x "$top_builddir/tests/onnx/gen_onnx" ]; then
    "$BYOC" --plugin "$plugin" partition "$top_srcdir/tests/plugin/conv_bn_relu.onnx" -t testnpu_conv \
        -f onnx-annotated -o "$tmp/a.onnx" 2>"$tmp/err" &&
        grep -a -q 'testnpu\.conv_bn_relu' "$tmp/a.onnx" && ok "quoted composite name in onnx" ||
        { bad "quoted composite name in onnx"; cat "$tmp/err"; }
else
    echo "SKIP: quoted composite name in onnx (built without ONNX)"
fi
"$BYOC" --plugin "$plugin" partition "$model" >"$tmp/out" 2>"$tmp/err" &&
    "$BYOC" partition "$model" >"$tmp/plain" 2>&1 && cmp -s "$tmp/out" "$tmp/plain" &&
    ok "default partition unchanged by a plugin" || bad "default partition unchanged by a plugin"

# Errors: exit status 1 and the message.
fails() { # name expected-status pattern args...
    name=$1 want=$2 pat=$3
    shift 3
    "$BYOC" "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" -eq "$want" ] && has "$tmp/err" "$pat" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name (status $st)"; cat "$tmp/err"
    fi
}
fails "missing library" 1 "byoc: error: cannot load plugin '$tmp/nope.so': .*nope.so" \
    --plugin "$tmp/nope.so" targets
echo 'not a library' >"$tmp/junk.so"
fails "not a library" 1 "byoc: error: cannot load plugin '$tmp/junk.so': " \
    --plugin "$tmp/junk.so" targets
fails "no entry point" 1 \
    "byoc: error: plugin '$libs/libnoentry.so' has no entry point 'byoc_plugin_register'" \
    --plugin "$libs/libnoentry.so" targets
fails "target name taken" 1 \
    "^dupnpu.byoc:7:8: error: target 'tensorrt' of module 'dupnpu' is already registered by module 'tensorrt'" \
    --plugin "$libs/libdupnpu.so" partition "$model"
has "$tmp/err" "^byoc: note: plugin '$libs/libdupnpu.so' failed to register its targets" &&
    ok "target name taken: note" || bad "target name taken: note"
fails "second plugin fails after the first" 1 "no entry point" \
    --plugin "$plugin" --plugin "$libs/libnoentry.so" targets
fails "--plugin without a value" 2 "byoc: error: --plugin needs a value" --plugin
fails "unknown plugin target" 2 "unknown target 'testnpu_nope'" --plugin "$plugin" partition "$model" -t testnpu_nope
# The same library twice registers its module once (a no-op the second time).
"$BYOC" --plugin "$plugin" --plugin "$plugin" targets >"$tmp/out" 2>"$tmp/err" &&
    [ "$(grep -c '^device testnpu:' "$tmp/out")" -eq 1 ] && ok "same plugin twice" ||
    { bad "same plugin twice"; cat "$tmp/err"; }
"$BYOC" --help | grep -q -- '--plugin LIB' && ok "--help mentions --plugin" || bad "--help mentions --plugin"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
