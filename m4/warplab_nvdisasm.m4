# warplab_nvdisasm.m4 — WARPLAB_CHECK_NVDISASM, configure.ac's check for
# NVIDIA's SASS disassembler, which shows the machine code ptxas made of a
# kernel (sass() and the SASS level of the emulator).
#
# Optional: --with-nvdisasm=PATH names it, --without-nvdisasm leaves it out;
# by default the CUDA toolkit's (after WARPLAB_CHECK_CUDA), then one on PATH,
# then the one build-aux/fetch-nvdisasm keeps under the user's cache folder.
# It must read CUDA 13 CUBINs: release 12.4 or newer (Debian bookworm's 11.8
# refuses them). Defines NVDISASM_PATH and leaves nvdisasm_summary set.
AC_DEFUN([WARPLAB_CHECK_NVDISASM], [
AC_ARG_WITH([nvdisasm],
  [AS_HELP_STRING([--with-nvdisasm=PATH],
    [NVIDIA's disassembler, to show kernels' SASS (default: the CUDA toolkit's, one on PATH, or the one build-aux/fetch-nvdisasm fetched)])],
  [], [with_nvdisasm=guess])
nvdisasm_candidates=
AS_CASE([$with_nvdisasm],
  [no], [],
  [yes|guess], [nvdisasm_candidates="${cuda_dir:+$cuda_dir/bin/nvdisasm} `command -v nvdisasm 2>/dev/null` ${XDG_CACHE_HOME:-$HOME/.cache}/warplab/nvdisasm/nvdisasm"],
  [nvdisasm_candidates=$with_nvdisasm])
nvdisasm_path=
for nvdisasm_candidate in $nvdisasm_candidates; do
  test -x "$nvdisasm_candidate" || continue
  AC_MSG_CHECKING([whether $nvdisasm_candidate reads CUDA 13 CUBINs])
  nvdisasm_release=`"$nvdisasm_candidate" --version 2>/dev/null | sed -n 's/.*release \([[0-9]]*\.[[0-9]]*\).*/\1/p'`
  nvdisasm_major=`echo "$nvdisasm_release" | sed 's/\..*//'`
  nvdisasm_minor=`echo "$nvdisasm_release" | sed 's/.*\.//'`
  AS_IF([test -n "$nvdisasm_release" && { test "$nvdisasm_major" -gt 12 || { test "$nvdisasm_major" -eq 12 && test "$nvdisasm_minor" -ge 4; }; }],
    [AC_MSG_RESULT([yes (release $nvdisasm_release)]); nvdisasm_path=$nvdisasm_candidate; break],
    [AC_MSG_RESULT([no (release ${nvdisasm_release:-unknown}; 12.4 or newer needed)])])
done
AS_IF([test -z "$nvdisasm_path" && test "$with_nvdisasm" != guess && test "$with_nvdisasm" != no],
  [AC_MSG_ERROR([--with-nvdisasm=$with_nvdisasm: no nvdisasm of release 12.4 or newer there])])
AS_IF([test -n "$nvdisasm_path"],
  [nvdisasm_summary=$nvdisasm_path
   AC_DEFINE_UNQUOTED([NVDISASM_PATH], ["$nvdisasm_path"], [NVIDIA's SASS disassembler])],
  [nvdisasm_summary="no: kernels are shown and emulated at PTX level (build-aux/fetch-nvdisasm gets it on Debian)"])
])
