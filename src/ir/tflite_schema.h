/* tflite_schema.h - the TFLite schema's operator codes and option union ids
 * as C enums, made from tflite_schema.def (the one list of those numbers).
 *
 * Standalone (no other project header) so that tools/tflite_builder can
 * write models with the same names the compiler reads them with. */
#ifndef TE_TFLITE_SCHEMA_H
#define TE_TFLITE_SCHEMA_H

/* Builtin operator codes: values equal TFLite's BuiltinOperator enum, so the
 * frontend stores them unchanged.  A code past the table (a newer schema)
 * is kept as its number and reported as unsupported. */
typedef enum {
#define TE_BUILTIN(name, code) TE_OP_##name = code,
#include "tflite_schema.def"
#undef TE_BUILTIN
    TE_OP_END_ /* one past the last listed code, see TE_BUILTIN_COUNT */
} te_opcode;

/* Number of BuiltinOperator codes the table names: 0 .. TE_BUILTIN_COUNT-1
 * (the table has no gaps, which the unit tests check). */
#define TE_BUILTIN_COUNT ((int)TE_OP_END_)

/* Codes of the custom operators the compiler knows (TE_CUSTOM lines), past
 * every builtin code: the reader gives a CUSTOM operator with one of those
 * custom_code names its code, so the op table treats it as an operator of
 * its own. */
#define TE_CUSTOM_BASE 1024
typedef enum {
    TE_OP_CUSTOM_BEFORE_ = TE_CUSTOM_BASE - 1,
#define TE_CUSTOM(name, custom_code) TE_OP_##name,
#include "tflite_schema.def"
#undef TE_CUSTOM
    TE_OP_CUSTOM_END_
} te_custom_code;
#define TE_CUSTOM_COUNT ((int)TE_OP_CUSTOM_END_ - TE_CUSTOM_BASE)

/* BuiltinOptions union type ids (Operator.builtin_options_type). */
typedef enum {
    TE_OPT_NONE = 0,
#define TE_BUILTIN_OPTIONS(tag, type, id) TE_OPT_##tag = id,
#include "tflite_schema.def"
#undef TE_BUILTIN_OPTIONS
    TE_OPT_END_
} te_options_type;

#endif
