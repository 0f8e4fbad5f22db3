# pending.cmake - reads tests/golden/pending.txt into TE_PENDING_MODELS (the
# shared models that wait for an issue) and gives te_drop_pending(LIST_VAR),
# which removes those models' .tflite paths from a list.
file(STRINGS ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt te_pending_lines REGEX "^[A-Za-z0-9_]")
set(TE_PENDING_MODELS "")
foreach(line ${te_pending_lines})
  string(REGEX MATCH "^[A-Za-z0-9_.-]+" te_pending_name "${line}")
  list(APPEND TE_PENDING_MODELS ${te_pending_name})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/golden/pending.txt)

function(te_drop_pending list_var)
  set(kept "")
  foreach(m ${${list_var}})
    get_filename_component(n ${m} NAME_WE)
    if(NOT n IN_LIST TE_PENDING_MODELS)
      list(APPEND kept ${m})
    endif()
  endforeach()
  set(${list_var} ${kept} PARENT_SCOPE)
endfunction()
