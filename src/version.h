/* version.h - the tool's version: `tinyengine --version`, te_version() and
 * the first comment of every generated file say the same. */
#ifndef TE_VERSION_H
#define TE_VERSION_H

#define TE_VERSION "0.1.0"

#endif
