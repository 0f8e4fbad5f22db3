# fuzz.cmake - the fuzz.smoke ctest (include(fuzz/fuzz.cmake) in
# tests/tests.cmake): builds the libFuzzer targets with clang into
# <build>/fuzz and runs each of the three for 40 s (about 3 minutes in all,
# build included).  Skipped (exit 77) when clang with libFuzzer is missing,
# except under CI=true.
add_test(NAME fuzz.smoke
         COMMAND sh ${CMAKE_SOURCE_DIR}/fuzz/smoke.sh ${CMAKE_BINARY_DIR}/fuzz 40)
set_tests_properties(fuzz.smoke PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
