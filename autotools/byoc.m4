# byoc.m4 - find byoc (libbyoc and the byocc compiler) from configure.ac
#
# BYOC_CHECK([MIN-VERSION])
#
# Needs pkg-config: call PKG_PROG_PKG_CONFIG first (pkg.m4, from the
# pkg-config package).  BYOC_CHECK:
#   - runs PKG_CHECK_MODULES([BYOC], [byoc >= MIN-VERSION]) (just [byoc]
#     without a version), and stops configure with an error that says what
#     to install or set (PKG_CONFIG_PATH) when byoc is missing or too old;
#   - finds byocc: `pkg-config --variable=byocc byoc`, else byocc on PATH;
#     the user may set BYOCC to override both; checks `$BYOCC --version`;
#   - substitutes
#       BYOCC          the byocc to run
#       BYOC_CFLAGS    from byoc.pc
#       BYOC_LIBS      from byoc.pc
#       BYOC_DATADIR   the installed data folder (relay.byoc and friends)
#       BYOC_MAKEFILE  the installed byoc.mk, with the rules to compile
#                      .byoc files; see the top of byoc.mk for its use.
#
# This file is installed in $(datadir)/aclocal.  When byoc is installed in
# another prefix, run aclocal (or autoreconf) with
#   ACLOCAL_PATH=$PREFIX/share/aclocal PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
#
# serial 1

AC_DEFUN([BYOC_CHECK],
[AC_REQUIRE([PKG_PROG_PKG_CONFIG])dnl
AC_ARG_VAR([BYOCC], [the byocc compiler for .byoc backend descriptions])dnl
m4_ifval([$1],
  [byoc_check_req="byoc >= $1"],
  [byoc_check_req="byoc"])
AS_IF([test -z "$PKG_CONFIG"],
  [AC_MSG_ERROR([pkg-config is required to find byoc; install pkg-config (Debian: apt-get install pkg-config)])])
PKG_CHECK_MODULES([BYOC], [$byoc_check_req], [],
  [AS_IF([$PKG_CONFIG --exists byoc],
    [byoc_check_have=`$PKG_CONFIG --modversion byoc`
     AC_MSG_ERROR([byoc $byoc_check_have is too old: this package needs $byoc_check_req.
Install a newer byoc, or set PKG_CONFIG_PATH to the lib/pkgconfig folder of one
(for a byoc installed in PREFIX: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig).])],
    [AC_MSG_ERROR([byoc was not found by pkg-config ($byoc_check_req is needed).
Install byoc (./configure && make && make install in its source tree), or, if
it is installed in a prefix pkg-config does not search, set PKG_CONFIG_PATH to
PREFIX/lib/pkgconfig.  pkg-config said:
$BYOC_PKG_ERRORS])])])
AC_MSG_CHECKING([for byocc])
AS_IF([test -z "$BYOCC"],
  [BYOCC=`$PKG_CONFIG --variable=byocc byoc 2>/dev/null`
   AS_IF([test -n "$BYOCC" && test ! -x "$BYOCC"], [BYOCC=])])
AS_IF([test -n "$BYOCC"],
  [AC_MSG_RESULT([$BYOCC])],
  [AC_MSG_RESULT([not in byoc.pc, searching PATH])
   AC_PATH_PROG([BYOCC], [byocc], [])])
AS_IF([test -z "$BYOCC"],
  [AC_MSG_ERROR([byocc was not found: byoc.pc names none that exists and byocc is not on PATH.
Install byoc's byocc, or set BYOCC=/path/to/byocc.])])
AC_MSG_CHECKING([whether $BYOCC runs])
AS_IF([byoc_check_v=`"$BYOCC" --version 2>&AS_MESSAGE_LOG_FD`],
  [AC_MSG_RESULT([yes ($byoc_check_v)])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([$BYOCC --version failed; is byoc installed correctly?  (Its libraries may need LD_LIBRARY_PATH.)])])
AC_MSG_CHECKING([for byoc's data folder])
BYOC_DATADIR=`$PKG_CONFIG --variable=pkgdatadir byoc 2>/dev/null`
AC_MSG_RESULT([${BYOC_DATADIR:-unknown}])
AC_MSG_CHECKING([for byoc.mk])
BYOC_MAKEFILE=
AS_IF([test -n "$BYOC_DATADIR" && test -r "$BYOC_DATADIR/byoc.mk"],
  [BYOC_MAKEFILE="$BYOC_DATADIR/byoc.mk"])
AS_IF([test -z "$BYOC_MAKEFILE"],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([byoc.mk was not found in byoc's data folder '$BYOC_DATADIR' (pkg-config --variable=pkgdatadir byoc); reinstall byoc.])])
AC_MSG_RESULT([$BYOC_MAKEFILE])
AC_SUBST([BYOCC])
AC_SUBST([BYOC_CFLAGS])
AC_SUBST([BYOC_LIBS])
AC_SUBST([BYOC_DATADIR])
AC_SUBST([BYOC_MAKEFILE])
])
