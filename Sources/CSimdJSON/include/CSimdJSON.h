/*
 * A tiny C API over simdjson's DOM parser, so Swift can parse JSON without
 * importing C++. Nothing here throws: every C++ exception is caught inside.
 *
 * Elements of the most recent document are named by handles: indexes into a
 * per-parser list that each parse clears (the root is handle 0). Strings and
 * keys point into the parser's memory and stay valid until the next parse.
 * A parser is not thread-safe; use one per thread.
 *
 * Functions returning `int` return 0 on success or a simdjson error code
 * (see ujson_error_message).
 */
#ifndef CSIMDJSON_H
#define CSIMDJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ujson_parser ujson_parser;

typedef enum {
    UJSON_ABSENT,
    UJSON_NULL,
    UJSON_BOOL,
    UJSON_INT64,
    UJSON_UINT64,
    UJSON_DOUBLE,
    UJSON_STRING,
    UJSON_ARRAY,
    UJSON_OBJECT
} ujson_kind;

/* UTF-8 bytes, not NUL-terminated. */
typedef struct {
    const char *data;
    size_t length;
} ujson_string;

/* One looked-up element; only the field matching `kind` is meaningful. */
typedef struct {
    ujson_kind kind;
    uint32_t handle; /* ARRAY, OBJECT: handle of the container */
    union {
        bool boolean;
        int64_t int64;   /* INT64: integers that fit int64 */
        uint64_t uint64; /* UINT64: integers above INT64_MAX */
        double number;   /* DOUBLE */
    };
    ujson_string string; /* STRING: unescaped bytes */
} ujson_value;

/* Returns NULL if out of memory. */
ujson_parser *ujson_parser_new(void);
void ujson_parser_free(ujson_parser *parser);

/* SIMDJSON_PADDING: readable bytes ujson_parse needs after the input when not copying. */
size_t ujson_padding(void);

/*
 * Parses exactly `len` bytes of `buf` as one JSON document and resets the handles.
 * copy == false: parses in place; `ujson_padding()` bytes after `buf + len` must be
 *   readable (they are never written and do not affect the result).
 * copy == true: first copies the bytes into a reused, padded parser-owned buffer;
 *   they may be a string of this parser's current document (JSON inside a string field).
 * len == 0 (buf may then be NULL) fails with EMPTY, like whitespace-only input.
 */
int ujson_parse(ujson_parser *parser, const char *buf, size_t len, bool copy);

/* The byte that ujson_parse_replacing_invalid_utf8 writes for each byte of an invalid UTF-8 sequence (DEL: it
 * may stand unescaped inside a JSON string, so a document stays as well-formed as it was). */
#define UJSON_REPLACED_BYTE 0x7F

/*
 * Copies `len` bytes of `buf` into the parser's padded buffer with every byte of an invalid UTF-8 sequence
 * replaced by UJSON_REPLACED_BYTE (*replaced says how many), then parses the copy as ujson_parse does.
 */
int ujson_parse_replacing_invalid_utf8(ujson_parser *parser, const char *buf, size_t len, size_t *replaced);

/* The code ujson_parse returns for input that is not valid UTF-8. */
int ujson_utf8_error(void);

/* A static description of a simdjson error code. */
const char *ujson_error_message(int code);

/*
 * Looks up an RFC 6901 JSON pointer (e.g. "/a/0/b~1c"; "" is the element itself)
 * under `handle`. A missing or inapplicable path gives kind UJSON_ABSENT.
 * Arrays and objects get a new handle (the element's own for an empty pointer).
 */
int ujson_at(ujson_parser *parser, uint32_t handle,
             const char *pointer, size_t pointer_len, ujson_value *out);

/*
 * If `handle` is an array, appends handles for its elements, which are then
 * *first ..< *first + *count in order; otherwise *count = 0.
 */
int ujson_array_elements(ujson_parser *parser, uint32_t handle,
                         uint32_t *first, size_t *count);

/*
 * A table: if `handle` is an array whose elements are all arrays of exactly `width` elements, writes
 * their values row by row into out[0 ..< rows * width] (containers inside get new handles) and sets
 * *rows. With fewer than rows * width slots in `capacity`, writes nothing, sets *rows and returns
 * UJSON_TABLE_CAPACITY; an element that is not an array of `width` gives UJSON_NOT_A_TABLE (*rows =
 * its index), and so does a handle that is not an array (*rows = 0).
 */
#define UJSON_TABLE_CAPACITY (-1)
#define UJSON_NOT_A_TABLE (-2)
int ujson_table(ujson_parser *parser, uint32_t handle, size_t width,
                ujson_value *out, size_t capacity, size_t *rows);

/*
 * If `handle` is an object, appends handles for its values in document order
 * (*first ..< *first + *count); *keys then points at *count keys, which stay valid
 * until the next call on this parser. Otherwise *count = 0.
 */
int ujson_object_entries(ujson_parser *parser, uint32_t handle,
                         uint32_t *first, size_t *count, const ujson_string **keys);

/* Minified JSON text of the element, in a parser-owned buffer valid until the next call on this parser. */
int ujson_minify(ujson_parser *parser, uint32_t handle, ujson_string *out);

/*
 * The canonical JSON text of the element (the form Swift's CanonicalJSON writes: object keys sorted by their bytes, a
 * repeated key's first value kept, strings escaped only where JSON requires, integral numbers below 2^53 as integers,
 * no whitespace), and its minified text (as ujson_minify writes it), in parser-owned buffers valid until the next
 * ujson_canonical or ujson_minify on this parser. A number with a fraction (or at least 2^53 and written with one)
 * gives UJSON_NOT_CANONICAL: its shortest text is Swift's to write.
 */
#define UJSON_NOT_CANONICAL (-3)
int ujson_canonical(ujson_parser *parser, uint32_t handle, ujson_string *canonical, ujson_string *minified);

/*
 * A fixed set of JSON pointers, looked up together by ujson_extract in one walk of the document:
 * shared prefixes are walked once, and only the subtrees on some path are visited.
 * Immutable once built, so one set may serve several parsers on several threads.
 */
typedef struct ujson_paths ujson_paths;

/* Builds the set; path i's value lands in slot i. Returns NULL if out of memory. */
ujson_paths *ujson_paths_new(const char *const *pointers, const size_t *lengths, size_t count);
void ujson_paths_free(ujson_paths *paths);

/*
 * Looks up every path of `paths` under `handle`; out[i] (of ujson_paths count) gets path i's value,
 * UJSON_ABSENT when missing. When an object repeats a key, the first occurrence's values win, as with
 * ujson_at. Arrays and objects found get new handles.
 */
int ujson_extract(ujson_parser *parser, uint32_t handle, const ujson_paths *paths, ujson_value *out);

/* Number of bytes equal to `byte` in buf[0 ..< len]. */
size_t ujson_count_byte(const char *buf, size_t len, char byte);

#ifdef __cplusplus
}
#endif

#endif
