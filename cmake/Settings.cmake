# augur::settings: the one place for language level, warnings and sanitizers.
add_library(augur_settings INTERFACE)
add_library(augur::settings ALIAS augur_settings)
target_compile_features(augur_settings INTERFACE cxx_std_20)
target_compile_options(augur_settings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                       -Wno-sign-conversion -Wnon-virtual-dtor -Wold-style-cast)
# GCC 12 reports false -Wrestrict positives inside libstdc++'s string concatenation at -O3
# (GCC bug 105329); the warning is off for GCC 12 only.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(augur_settings INTERFACE -Wno-restrict)
endif()
# GCC's generic x86-64 tuning clears or copies a struct of 88 to 8,192 bytes (a request, a trace
# record) with `rep stos`/`rep movs`, whose start-up costs tens of cycles per use: a loop of
# vector stores instead, and glibc's routines above 256 bytes.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  target_compile_options(augur_settings INTERFACE -mmemset-strategy=vector_loop:256:noalign,libcall:-1:noalign
                         -mmemcpy-strategy=vector_loop:256:noalign,libcall:-1:noalign)
endif()
if(AUGUR_WERROR)
  target_compile_options(augur_settings INTERFACE -Werror)
endif()
if(AUGUR_SANITIZE)
  target_compile_options(augur_settings INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                         -fno-sanitize-recover=undefined)
  target_link_options(augur_settings INTERFACE -fsanitize=address,undefined)
endif()
# Static executables: no dynamic loader, no relocation of shared libraries at start-up, which
# is a noticeable part of a short run. libc is linked in too (-static rather than
# -static-libstdc++ -static-libgcc): augur uses no name service or dlopen, the parts of glibc
# that need shared objects at run time.
# Each function and object in a section of its own, unreferenced ones dropped at link time: the
# static executable carries only what it calls (OTF2, Beast and fmt bring much it does not), and a
# short run touches, and page-faults in, fewer pages of it.
if(AUGUR_STATIC_RUNTIME)
  target_link_options(augur_settings INTERFACE -static -Wl,--gc-sections)
  target_compile_options(augur_settings INTERFACE -ffunction-sections -fdata-sections)
endif()
target_include_directories(augur_settings INTERFACE ${PROJECT_SOURCE_DIR})
