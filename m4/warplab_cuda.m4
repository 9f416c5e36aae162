# warplab_cuda.m4 — WARPLAB_CHECK_CUDA, configure.ac's check for CUDA.
#
# The GPU backend is optional: this finds the toolkit (--with-cuda=DIR), the
# GPUs to build for (--with-cuda-arch=ARCHS) and CUPTI's Range Profiler for
# hardware counters (--disable-counters). It substitutes NVCC, NVCC_FLAGS,
# CUDA_CFLAGS and CUDA_LIBS, defines HAVE_CUDA (and the conditional of that
# name), HAVE_CUPTI_RANGE_PROFILER, CUDA_ARCH_TEXT, CUDA_VERSION_TEXT and
# CUDA_DIR, and leaves have_cuda, have_counters, cuda_dir, CUDA_VERSION and
# cuda_arch_text set for configure's summary.
AC_DEFUN([WARPLAB_CHECK_CUDA], [
# CUDA: optional. --with-cuda=DIR asks for it (missing is then an error);
# by default /usr/local/cuda is tried and, when absent, the shell is built
# for the simulation backend only.
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit to build the GPU backend with (default: /usr/local/cuda when present)])],
  [], [with_cuda=guess])
# The GPUs the kernels are built for: by default every architecture the
# toolkit supports (Turing's sm_75 and up) plus PTX for the newest, which the
# driver compiles for a GPU newer than the toolkit.
AC_ARG_WITH([cuda-arch],
  [AS_HELP_STRING([--with-cuda-arch=ARCHS],
    [GPU architectures to build for: all (the default: every one the toolkit supports, each with its PTX), all-major, native (the GPUs of this machine), or a list such as 75,80,90])],
  [], [with_cuda_arch=all])
AC_ARG_ENABLE([counters],
  [AS_HELP_STRING([--disable-counters], [build the GPU backend without hardware counters (default: with them when the toolkit's CUPTI has the Range Profiler)])],
  [], [enable_counters=yes])
cuda_dir=
AS_CASE([$with_cuda],
  [no], [],
  [yes|guess], [cuda_dir=/usr/local/cuda],
  [cuda_dir=$with_cuda])
have_cuda=no
CUDA_VERSION=
AS_IF([test -n "$cuda_dir"], [
  AC_MSG_CHECKING([for nvcc in $cuda_dir])
  NVCC="$cuda_dir/bin/nvcc"
  AS_IF([test -x "$NVCC"], [
    AC_MSG_RESULT([yes])
    # cuda_arch_flags for nvcc; cuda_arch_text for the summary and --version.
    # Each architecture gets its SASS and its PTX: a GPU newer than all of
    # them JITs the newest PTX, and CUDA_FORCE_PTX_JIT=1 tests that path on
    # any GPU with the PTX of its own architecture.
    cuda_archs=$with_cuda_arch
    AS_IF([test "$with_cuda_arch" = all],
      [cuda_archs=`$NVCC --list-gpu-code 2>/dev/null | tr '\n' ' '`])
    AS_CASE([$with_cuda_arch],
      [all-major|native], [cuda_arch_flags="-arch=$with_cuda_arch"
                           cuda_arch_text="$with_cuda_arch (as nvcc chooses) + PTX"],
      [cuda_arch_flags= cuda_arch_text=
       for arch in `echo "$cuda_archs" | tr ',' ' '`; do
         arch=`echo "$arch" | sed 's/^sm_//; s/^compute_//'`
         AS_CASE([$arch], [[[0-9]]*], [],
           [AC_MSG_ERROR([--with-cuda-arch: '$arch' is not an architecture such as 75, 90 or sm_90; or use all, all-major or native])])
         cuda_arch_flags="$cuda_arch_flags -gencode arch=compute_$arch,code=sm_$arch -gencode arch=compute_$arch,code=compute_$arch"
         cuda_arch_text="${cuda_arch_text}sm_$arch "
       done
       AS_IF([test -z "$cuda_arch_flags"], [AC_MSG_ERROR([--with-cuda-arch: no architecture given])])
       cuda_arch_text="${cuda_arch_text}+ PTX of each"])
    AC_MSG_CHECKING([whether nvcc compiles for $cuda_arch_text])
    printf '__global__ void probe(int *p) { *p = 1; }\n' > conftest.cu
    AS_IF([$NVCC -c $cuda_arch_flags -o conftest.o conftest.cu >&AS_MESSAGE_LOG_FD 2>&1 &&
           test -f "$cuda_dir/lib64/libcudart_static.a"],
      [have_cuda=yes
       CUDA_VERSION=`$NVCC --version | sed -n 's/.*release \([[0-9.]]*\).*/\1/p'`],
      [])
    rm -f conftest.cu conftest.o
    AC_MSG_RESULT([$have_cuda])
  ], [AC_MSG_RESULT([no])])
])
AS_IF([test "$have_cuda" = no && test "$with_cuda" != guess && test "$with_cuda" != no],
  [AC_MSG_ERROR([CUDA was asked for (--with-cuda=$with_cuda) but no working nvcc and libcudart_static.a were found in $cuda_dir])])
AS_IF([test "$have_cuda" = yes], [
  AC_DEFINE([HAVE_CUDA], [1], [Define to 1 to build the GPU backend])
  # CUPTI's host header includes C++'s <string>; an empty one lets C compile it.
  CUDA_CFLAGS="-I\$(top_srcdir)/shell/backend/cupti-shim -I$cuda_dir/include"
  # The runtime is linked statically so that one binary starts, and reports
  # "no GPU", on a machine without an NVIDIA driver.
  CUDA_LIBS="-L$cuda_dir/lib64 -lcudart_static -ldl -lpthread -lrt"
  # Hardware counters need CUPTI's Range Profiler (CUDA 12.6 or newer); a
  # toolkit without it builds the GPU backend without counters, saying so.
  have_counters=no
  AS_IF([test "$enable_counters" != no], [
    AC_MSG_CHECKING([for CUPTI's Range Profiler header])
    AS_IF([test -f "$cuda_dir/include/cupti_range_profiler.h"], [AC_MSG_RESULT([yes]); have_counters=yes],
      [AC_MSG_RESULT([no])
       AC_MSG_WARN([$cuda_dir has no cupti_range_profiler.h (CUDA 12.6 or newer has it): building without hardware counters])])])
  AS_IF([test "$have_counters" = yes],
    [AC_DEFINE([HAVE_CUPTI_RANGE_PROFILER], [1], [Define to 1 to read hardware counters through CUPTI's Range Profiler])])
  NVCC_FLAGS="-O3 -std=c++17 $cuda_arch_flags"
  AC_DEFINE_UNQUOTED([CUDA_ARCH_TEXT], ["$cuda_arch_text"], [GPU architectures the kernels are built for])
  AC_DEFINE_UNQUOTED([CUDA_VERSION_TEXT], ["$CUDA_VERSION"], [CUDA toolkit version built with])
  AC_DEFINE_UNQUOTED([CUDA_DIR], ["$cuda_dir"], [CUDA toolkit folder, where CUPTI is looked for at run time])
])
AC_SUBST([NVCC])
AC_SUBST([NVCC_FLAGS])
AC_SUBST([CUDA_CFLAGS])
AC_SUBST([CUDA_LIBS])
AM_CONDITIONAL([HAVE_CUDA], [test "$have_cuda" = yes])
])
