# ctest docs.ops_md_current: docs/ops.md must equal `nnbridge ops --markdown` (the schema registry
# and the backends' op lists of this build). Run as cmake -DCLI=... -DDOC=... -P check_ops_doc.cmake.
execute_process(COMMAND ${CLI} ops --markdown OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "`${CLI} ops --markdown` failed (exit ${rc})")
endif()
if(NOT EXISTS ${DOC})
  message(FATAL_ERROR "${DOC} is missing; generate it with: ${CLI} ops --markdown > ${DOC}")
endif()
file(READ ${DOC} checked_in)
if(NOT checked_in STREQUAL generated)
  message(FATAL_ERROR "${DOC} is out of date (the op schemas or a backend's kernels changed); regenerate it with:\n"
                      "  ${CLI} ops --markdown > ${DOC}\nand commit the result")
endif()
