/*
 * sleetkit.h: the C API of SleetKit (libSleetKitC.so). Guide: docs/c-api.md.
 *
 * SleetKit is a headless, deterministic particle and transition kernel: the
 * particles of an effect at time t are a pure function of (effect, seed, t),
 * the same bits on every call, thread count and process.
 *
 * Conventions (every function follows them):
 *
 * - Handles are opaque (sleet_effect, sleet_system, sleet_checkerboard,
 *   sleet_transition). A *_create function makes one and gives the caller
 *   its only reference; the matching *_destroy frees it (NULL is ignored).
 *   Passing a pointer that is not a live handle of this library (freed,
 *   never made, or of a different library) is undefined behaviour; passing
 *   a live handle of the wrong kind (an effect where a system is expected)
 *   is detected: SLEET_ERROR_INVALID_ARGUMENT.
 * - Every fallible function returns a sleet_status (SLEET_OK or one of the
 *   SLEET_ERROR_* codes below) and takes a last argument
 *   `sleet_error *error` that may be NULL. When it is not NULL the function
 *   sets error->status to the returned code and error->message to a
 *   NUL-terminated UTF-8 message naming the problem ("" on success),
 *   truncated at a character boundary to fit SLEET_ERROR_MESSAGE_SIZE bytes.
 *   The buffer is the caller's; nothing is allocated for it.
 * - No function traps or aborts on bad input: NULL pointers, non-finite
 *   numbers, unknown names, times the effect cannot be simulated at and
 *   buffers that are too small are reported with a code and a message.
 *   On an error, out-parameters are left as they were unless the function
 *   says otherwise. (Running out of memory is not reported: it aborts.)
 * - Count first, then fill: sleet_system_render and
 *   sleet_transition_evaluate compute a frame inside the handle and return
 *   its element count; sleet_system_copy_instances,
 *   sleet_system_copy_compact_instances and sleet_transition_copy_layers
 *   copy up to `capacity` elements of that frame into the caller's array.
 * - Strings in are NUL-terminated UTF-8 (invalid UTF-8 is an error);
 *   strings out are written into caller buffers, NUL-terminated.
 * - Thread safety, per handle: a handle is used by one thread at a time
 *   (no two calls on one handle may overlap) unless a function says
 *   "any thread, concurrently"; different handles may be used on
 *   different threads at the same time, including systems made from one
 *   effect. Destroying a handle must not overlap any other call on it.
 *   Functions without a handle may be called from any thread.
 *
 * Units: times in seconds (particle times on the emitter's parent timeline;
 * transition times since the transition began), lengths in points, y down.
 */
#ifndef SLEETKIT_H
#define SLEETKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status codes and errors                                                   */
/* ------------------------------------------------------------------------ */

typedef int32_t sleet_status;

/** Success. */
#define SLEET_OK 0
/** A required pointer argument was NULL (the message names it). */
#define SLEET_ERROR_NULL_ARGUMENT 1
/** An argument is out of its domain: a non-finite or out-of-range number, an
 *  unknown style, direction or parameter name, invalid UTF-8, an index past
 *  the end, a handle of the wrong kind. The message names the argument. */
#define SLEET_ERROR_INVALID_ARGUMENT 2
/** The effect JSON is malformed or invalid (the message gives the JSON path
 *  and the reason, e.g. "emitterCells[0].birthRate: must be ≥ 0, got -1"),
 *  or the effect cannot be simulated (a peak of live particles over the
 *  budget, too many cells). */
#define SLEET_ERROR_INVALID_EFFECT 3
/** A file could not be read (the message gives the path and the reason). */
#define SLEET_ERROR_FILE 4
/** A time is finite but past the latest time the effect is simulated
 *  exactly (the message gives the limit). */
#define SLEET_ERROR_TIME_OUT_OF_RANGE 5
/** The caller's buffer is smaller than the data: the function wrote what
 *  fits (see each function) and reports the full size. */
#define SLEET_ERROR_CAPACITY 6
/** The transition's inputs are invalid (size, direction, options; the
 *  message names the input). */
#define SLEET_ERROR_INVALID_TRANSITION 7
/** The call does not match the handle's configuration (copying full
 *  instances from a system made with SLEET_LAYOUT_COMPACT, or the reverse). */
#define SLEET_ERROR_WRONG_LAYOUT 8

/** Bytes in sleet_error.message, the terminating NUL included. */
#define SLEET_ERROR_MESSAGE_SIZE 1024

/** A caller-owned error record (may live on the stack). */
typedef struct sleet_error {
  /** The status the function returned. */
  sleet_status status;
  /** NUL-terminated UTF-8; "" on success. */
  char message[SLEET_ERROR_MESSAGE_SIZE];
} sleet_error;

/* ------------------------------------------------------------------------ */
/* Version                                                                   */
/* ------------------------------------------------------------------------ */

/** SleetKit's version, e.g. "0.1.0" (semantic versioning): a static string
 *  that is never NULL and never freed. Any thread, concurrently. */
const char *sleet_version(void);

/* ------------------------------------------------------------------------ */
/* Effects                                                                   */
/* ------------------------------------------------------------------------ */

/** An effect: an emitter definition and its timed key-path changes, read
 *  from an effect file (format 1, docs/effect-format.md). */
typedef struct sleet_effect sleet_effect;

/**
 * Reads an effect from JSON text: `length` bytes at `json` (no terminating
 * NUL needed), checked strictly (unknown keys, wrong types, non-finite
 * numbers and unknown key paths are errors naming the JSON path).
 * On success *out_effect is a new handle. Errors: NULL_ARGUMENT,
 * INVALID_EFFECT. Any thread.
 */
sleet_status sleet_effect_create_from_json(const char *json, size_t length, sleet_effect **out_effect,
                                           sleet_error *error);

/**
 * Reads an effect file. Relative ".png" sprite paths in it are resolved
 * against the file's folder. Errors: NULL_ARGUMENT, INVALID_ARGUMENT (path
 * not UTF-8), FILE (cannot be read), INVALID_EFFECT. Any thread.
 */
sleet_status sleet_effect_create_from_file(const char *path, sleet_effect **out_effect, sleet_error *error);

/** Frees an effect (NULL is ignored). Systems made from it stay valid. */
void sleet_effect_destroy(sleet_effect *effect);

/**
 * Sets a named parameter of the effect (a preset's "width", …): each of its
 * bindings is re-evaluated, and the result re-checked. Systems made before
 * are not affected. Errors: NULL_ARGUMENT, INVALID_ARGUMENT (an unknown
 * name, a value that is not finite or out of the parameter's range, or one
 * that makes a bound property invalid). One thread at a time per effect, and
 * not while another thread reads the effect (sleet_system_create).
 */
sleet_status sleet_effect_set_parameter(sleet_effect *effect, const char *name, double value, sleet_error *error);

/* ------------------------------------------------------------------------ */
/* Particle systems                                                          */
/* ------------------------------------------------------------------------ */

/** A running effect: seek or step to a time, then render its particles. */
typedef struct sleet_system sleet_system;

/**
 * One particle as a renderer draws it: 64 bytes, no padding, the bits of
 * Swift's ParticleInstance (which is 16-byte aligned; this struct needs only
 * 4, so a buffer of it may be an ordinary array).
 *
 * | offset | field          | meaning                                          |
 * |--------|----------------|--------------------------------------------------|
 * |  0     | x, y, z        | position in points, y down (z = 0 unless the     |
 * |        |                | effect preserves depth)                          |
 * | 12     | scale          | drawn scale, max(0, s0 + scaleSpeed·age)         |
 * | 16     | color[4]       | r, g, b, a in [0, 1], straight alpha             |
 * | 32     | contents_rect  | x, y, w, h: unit sub-rectangle of the sprite     |
 * | 48     | rotation       | radians, spin·age                                |
 * | 52     | normalized_age | age / lifetime, in [0, 1)                        |
 * | 56     | sprite         | sprite-table index; 0xFFFFFFFF: no contents      |
 * | 60     | cell           | cell-table index                                 |
 */
typedef struct sleet_particle_instance {
  float x;
  float y;
  float z;
  float scale;
  float color[4];
  float contents_rect[4];
  float rotation;
  float normalized_age;
  uint32_t sprite;
  uint32_t cell;
} sleet_particle_instance;

/** The `sprite` value meaning "no contents" in a sleet_particle_instance. */
#define SLEET_NO_SPRITE 0xFFFFFFFFu

/**
 * One particle in 32 bytes (SLEET_LAYOUT_COMPACT), no padding, the bits of
 * Swift's CompactParticleInstance: the full instance's fields without the
 * contents rect, colour as unorm8 (255·c rounded to nearest, ties to even).
 *
 * | offset | field          | meaning                                          |
 * |--------|----------------|--------------------------------------------------|
 * |  0     | x, y, z        | position, as in sleet_particle_instance          |
 * | 12     | scale          | drawn scale                                      |
 * | 16     | rotation       | radians                                          |
 * | 20     | normalized_age | age / lifetime, in [0, 1)                        |
 * | 24     | color[4]       | r, g, b, a as unorm8 (R8G8B8A8_UNORM)            |
 * | 28     | sprite         | sprite-table index; 0xFFFF: no contents          |
 * | 30     | cell           | cell-table index                                 |
 */
typedef struct sleet_compact_particle_instance {
  float x;
  float y;
  float z;
  float scale;
  float rotation;
  float normalized_age;
  uint8_t color[4];
  uint16_t sprite;
  uint16_t cell;
} sleet_compact_particle_instance;

/** The `sprite` value meaning "no contents" in a compact instance. */
#define SLEET_COMPACT_NO_SPRITE 0xFFFFu

/** The 64-byte instance (sleet_particle_instance) in each frame. */
#define SLEET_LAYOUT_FULL 0
/** The 32-byte instance (sleet_compact_particle_instance) in each frame. */
#define SLEET_LAYOUT_COMPACT 1

/** How a system is made. Start from sleet_system_options_init. */
typedef struct sleet_system_options {
  /** The random seed, used when has_seed is non-zero; otherwise the
   *  effect's own seed (its "seed" field, 0 by default). */
  uint32_t seed;
  int32_t has_seed;
  /** Worker threads for sleet_system_render, 1 to 1024 (1: the calling
   *  thread only). The output is bit-identical for any value. Default 1. */
  int32_t threads;
  /** SLEET_LAYOUT_FULL (default) or SLEET_LAYOUT_COMPACT. */
  int32_t layout;
  /** The most live particles allowed, 1 to 2^31 − 1: an effect whose
   *  computed peak is larger is refused (INVALID_EFFECT). Default
   *  4,000,000. */
  int64_t budget;
} sleet_system_options;

/** Fills *options with the defaults (NULL is ignored). Any thread. */
void sleet_system_options_init(sleet_system_options *options);

/**
 * Makes a system from an effect (the effect is copied: destroying it later
 * does not affect the system). `options` may be NULL for the defaults.
 * Errors: NULL_ARGUMENT, INVALID_ARGUMENT (an option out of range),
 * INVALID_EFFECT (peak over the budget, too many cells). The effect may be
 * read by several threads at once (concurrent sleet_system_create calls on
 * one effect are fine).
 */
sleet_status sleet_system_create(const sleet_effect *effect, const sleet_system_options *options,
                                 sleet_system **out_system, sleet_error *error);

/** Frees a system (NULL is ignored). */
void sleet_system_destroy(sleet_system *system);

/**
 * Jumps to `time` (forward or backward), rebuilding the live particles from
 * the birth schedule: the cost depends on the particles alive then, not on
 * `time`. Errors: NULL_ARGUMENT, INVALID_ARGUMENT (time not finite),
 * TIME_OUT_OF_RANGE (past the effect's limit). One thread at a time.
 */
sleet_status sleet_system_seek(sleet_system *system, double time, sleet_error *error);

/**
 * Moves to `time` incrementally (moving backward, or the first call, seeks);
 * gives exactly the particles sleet_system_seek gives, bit for bit. Errors
 * as sleet_system_seek. One thread at a time.
 */
sleet_status sleet_system_advance(sleet_system *system, double time, sleet_error *error);

/**
 * Renders the particles at the current time into the system's frame (kept
 * until the next render) and sets *out_count to the number of instances:
 * the live particles that are drawn (those of cells disabled at that time
 * are not), in render order. Before the first seek or advance the frame is
 * empty. Errors: NULL_ARGUMENT. One thread at a time.
 */
sleet_status sleet_system_render(sleet_system *system, size_t *out_count, sleet_error *error);

/**
 * Copies the instances of the last render (system made with
 * SLEET_LAYOUT_FULL) into `buffer`, in render order: min(count, capacity)
 * of them, and sets *out_written to that number. `buffer` may be NULL only
 * when `capacity` is 0. Returns SLEET_ERROR_CAPACITY when capacity < count
 * (the first `capacity` instances are written, *out_written = capacity).
 * Errors: NULL_ARGUMENT, CAPACITY, WRONG_LAYOUT. One thread at a time.
 */
sleet_status sleet_system_copy_instances(const sleet_system *system, sleet_particle_instance *buffer, size_t capacity,
                                        size_t *out_written, sleet_error *error);

/** sleet_system_copy_instances for a system made with SLEET_LAYOUT_COMPACT. */
sleet_status sleet_system_copy_compact_instances(const sleet_system *system,
                                                 sleet_compact_particle_instance *buffer, size_t capacity,
                                                 size_t *out_written, sleet_error *error);

/** Source-over compositing (straight alpha). */
#define SLEET_BLEND_SOURCE_OVER 0
/** Source plus destination (the effect's renderMode "additive"). */
#define SLEET_BLEND_ADDITIVE 1

/**
 * How the last render's instances are composited: SLEET_BLEND_SOURCE_OVER or
 * SLEET_BLEND_ADDITIVE (source-over for an empty frame). Errors:
 * NULL_ARGUMENT. One thread at a time.
 */
sleet_status sleet_system_blend_mode(const sleet_system *system, int32_t *out_blend_mode, sleet_error *error);

/**
 * The sprite table of the last render: an instance's `sprite` field indexes
 * it. *out_count is the number of entries. Errors: NULL_ARGUMENT. One thread
 * at a time.
 */
sleet_status sleet_system_sprite_count(const sleet_system *system, size_t *out_count, sleet_error *error);

/**
 * The name of sprite-table entry `index` (the cell's "contents": a built-in
 * sprite name such as "snowflake", or a PNG path). *out_length (may be NULL)
 * is set to the name's length in bytes without the NUL. Size 0 asks for the
 * length only (SLEET_OK, nothing written; `buffer` may then be NULL).
 * Otherwise the name and a NUL are written when `size` > length, and when
 * they do not fit "" is written and SLEET_ERROR_CAPACITY returned. Errors:
 * NULL_ARGUMENT, INVALID_ARGUMENT (index past the end), CAPACITY. One thread
 * at a time.
 */
sleet_status sleet_system_sprite_name(const sleet_system *system, size_t index, char *buffer, size_t size,
                                      size_t *out_length, sleet_error *error);

/**
 * The contentsScale of sprite-table entry `index`: sprite pixels per point
 * (draw the sprite at its point size for contentsScale 1 divided by this).
 * Errors: NULL_ARGUMENT, INVALID_ARGUMENT (index). One thread at a time.
 */
sleet_status sleet_system_sprite_contents_scale(const sleet_system *system, size_t index, float *out_scale,
                                                sleet_error *error);

/**
 * The cell table: an instance's `cell` field indexes it; entry i is the
 * cell's key path without "emitterCells." (e.g. "rocket.spark").
 * *out_count is the number of cells. Errors: NULL_ARGUMENT. One thread at a
 * time.
 */
sleet_status sleet_system_cell_count(const sleet_system *system, size_t *out_count, sleet_error *error);

/** The path of cell `index`, written as sleet_system_sprite_name writes. */
sleet_status sleet_system_cell_path(const sleet_system *system, size_t index, char *buffer, size_t size,
                                    size_t *out_length, sleet_error *error);

/* ------------------------------------------------------------------------ */
/* The checkerboard plan                                                     */
/* ------------------------------------------------------------------------ */

/** The tiling and timing of Apple's checkerboard transition for one
 *  container (docs/shatter.md). Immutable once made. */
typedef struct sleet_checkerboard sleet_checkerboard;

/** How a plan is made. Start from sleet_checkerboard_options_init. */
typedef struct sleet_checkerboard_options {
  /** "push" (the default when NULL) or "pop". */
  const char *direction;
  /** The tile side is round(width / divisor); ≥ 1. Default 10. */
  int32_t divisor;
  /** D, the nominal duration in seconds; finite, > 0. Default 3.0. */
  double duration;
  /** S, the spacing in points; finite, ≥ 0. Default 160. */
  double spacing;
} sleet_checkerboard_options;

/** Fills *options with the defaults (NULL is ignored). Any thread. */
void sleet_checkerboard_options_init(sleet_checkerboard_options *options);

/**
 * Makes the plan for a width × height container (each finite, in
 * (0, 100000] points; at most 2^22 tiles). `options` may be NULL for the
 * defaults. Errors: NULL_ARGUMENT, INVALID_ARGUMENT (the message names the
 * input). Any thread.
 */
sleet_status sleet_checkerboard_create(double width, double height, const sleet_checkerboard_options *options,
                                       sleet_checkerboard **out_plan, sleet_error *error);

/** Frees a plan (NULL is ignored). */
void sleet_checkerboard_destroy(sleet_checkerboard *plan);

/** A plan's numbers. */
typedef struct sleet_checkerboard_info {
  /** s: the side of every tile, points. */
  double tile_side;
  /** D·S/(L + S): every tile's flip duration, seconds. */
  double tile_duration;
  /** When the last tile finishes (slightly before duration), seconds. */
  double end_time;
  /** D, as given. */
  double duration;
  /** ⌈W/s⌉, ⌈H/s⌉ and their product. */
  size_t columns;
  size_t rows;
  size_t tile_count;
} sleet_checkerboard_info;

/** The plan's numbers. Errors: NULL_ARGUMENT. Any thread, concurrently. */
sleet_status sleet_checkerboard_get_info(const sleet_checkerboard *plan, sleet_checkerboard_info *out_info,
                                         sleet_error *error);

/** One tile's schedule (24 bytes: delay 0, duration 8, column 16, row 20). */
typedef struct sleet_checkerboard_tile {
  /** Start, seconds after the transition begins. */
  double delay;
  /** Flip duration, seconds (the sample's D·(p + S)/(L + S) − delay). */
  double duration;
  int32_t column;
  int32_t row;
} sleet_checkerboard_tile;

/**
 * Copies the tiles' schedules, row-major (index = row·columns + column):
 * min(tile_count, capacity) of them, and sets *out_written to that number.
 * `buffer` may be NULL only when `capacity` is 0. Returns SLEET_ERROR_CAPACITY
 * when capacity < tile_count (the first `capacity` tiles are written).
 * Errors: NULL_ARGUMENT, CAPACITY. Any thread, concurrently.
 */
sleet_status sleet_checkerboard_copy_tiles(const sleet_checkerboard *plan, sleet_checkerboard_tile *buffer,
                                           size_t capacity, size_t *out_written, sleet_error *error);

/* ------------------------------------------------------------------------ */
/* Transitions                                                               */
/* ------------------------------------------------------------------------ */

/** A view transition in one style (docs/transitions.md), with a frame of
 *  layers it evaluates into. */
typedef struct sleet_transition sleet_transition;

/** A rectangle in container points. */
typedef struct sleet_rect {
  double x;
  double y;
  double width;
  double height;
} sleet_rect;

/** The inputs some styles need; NULL pointers and zero flags mean "not
 *  given". A style refuses an option it does not use. Zero-initialise it
 *  (`sleet_transition_options o = {0};`). */
typedef struct sleet_transition_options {
  /** zoom (required): the image's rect on the screen it leaves on push. */
  const sleet_rect *image_rect;
  /** zoom (required): the image's rect on the screen it arrives at on push. */
  const sleet_rect *target_rect;
  /** circleReveal (required): the button's frame on the from screen. */
  const sleet_rect *button;
  /** checkerboard, explode, glassBreak: the tile divisor when has_divisor
   *  is non-zero (default 10). */
  int32_t has_divisor;
  int32_t divisor;
  /** explode, glassBreak: the random seed when has_seed is non-zero
   *  (default 0). */
  int32_t has_seed;
  uint64_t seed;
} sleet_transition_options;

/**
 * Makes a transition. `style` is one of "slide", "fade", "zoom", "window",
 * "circleReveal", "tilt3D", "checkerboard", "explode", "glassBreak";
 * `direction` one the style takes ("push", "pop", "present", "dismiss"), or
 * NULL for the style's default (push or present). `options` may be NULL.
 * Errors: NULL_ARGUMENT, INVALID_ARGUMENT (unknown style or direction name),
 * INVALID_TRANSITION (a size, direction or option the style refuses; the
 * message names it). Any thread.
 */
sleet_status sleet_transition_create(const char *style, const char *direction, double width, double height,
                                     const sleet_transition_options *options, sleet_transition **out_transition,
                                     sleet_error *error);

/** Frees a transition (NULL is ignored). */
void sleet_transition_destroy(sleet_transition *transition);

/**
 * The style's nominal duration D (what interactive progress p maps onto as
 * time p·D) and the time every value has reached its end (≤ D). Either out
 * pointer may be NULL. Errors: NULL_ARGUMENT (the handle). One thread at a
 * time.
 */
sleet_status sleet_transition_get_times(const sleet_transition *transition, double *out_duration,
                                        double *out_end_time, sleet_error *error);

/**
 * Evaluates the transition at `time` (seconds; before 0 every value is at its
 * start, from the end time on at its end) into the transition's frame, and
 * sets *out_layer_count to its number of layers. Errors: NULL_ARGUMENT,
 * INVALID_ARGUMENT (time not finite). One thread at a time.
 */
sleet_status sleet_transition_evaluate(sleet_transition *transition, double time, size_t *out_layer_count,
                                       sleet_error *error);

/** What a layer shows. */
#define SLEET_CONTENT_FROM_SCREEN 0 /* the from screen's snapshot (shown first) */
#define SLEET_CONTENT_TO_SCREEN 1   /* the to screen's snapshot (shown at the end) */
#define SLEET_CONTENT_COLOR 2       /* a solid colour (sleet_transition_layer.color) */
#define SLEET_CONTENT_IMAGE 3       /* the zoom style's flying image */

/**
 * One layer of a transition frame: a textured or solid quadrilateral, 192
 * bytes, no padding. Points are row vectors; `transform` maps the unit square
 * (u, v, 0, 1), u right, v down, onto the layer in container space,
 * perspective included: [x y z w] = [u v 0 1]·M; the corners are the unit
 * corners projected (x/w, y/w), NaN when a corner is at or behind the eye
 * (skip the layer).
 *
 * | offset | field              | meaning                                     |
 * |--------|--------------------|---------------------------------------------|
 * |   0    | transform[16]      | M row-major: m11 m12 m13 m14 m21 … m44      |
 * |        |                    | (CATransform3D order; translation m41..m43) |
 * |  64    | corners[8]         | TL.x TL.y TR.x TR.y BR.x BR.y BL.x BL.y,    |
 * |        |                    | container points                            |
 * |  96    | texture_corners[8] | the part of the content drawn, TL TR BR BL  |
 * |        |                    | in unit texture coordinates ((0,0) top-left)|
 * | 128    | color[4]           | r g b a for SLEET_CONTENT_COLOR, else 0     |
 * | 144    | mask               | the oval mask's rect (when has_mask): only  |
 * |        |                    | the part inside its inscribed ellipse shows |
 * | 176    | opacity            | in [0, 1]                                   |
 * | 180    | depth              | largest container z of the corners before   |
 * |        |                    | the divide (0 for a flat layer)             |
 * | 184    | content            | SLEET_CONTENT_*                             |
 * | 188    | has_mask           | 1 when mask is set, else 0 (mask all 0)     |
 *
 * Layers come back to front: draw them in order.
 */
typedef struct sleet_transition_layer {
  float transform[16];
  float corners[8];
  float texture_corners[8];
  float color[4];
  sleet_rect mask;
  float opacity;
  float depth;
  int32_t content;
  int32_t has_mask;
} sleet_transition_layer;

/**
 * Copies the layers of the last evaluation, back to front: min(count,
 * capacity) of them, and sets *out_written to that number. `buffer` may be
 * NULL only when `capacity` is 0. Returns SLEET_ERROR_CAPACITY when capacity
 * < count (the first `capacity` layers are written). Before the first
 * evaluation there are no layers. Errors: NULL_ARGUMENT, CAPACITY. One thread
 * at a time.
 */
sleet_status sleet_transition_copy_layers(const sleet_transition *transition, sleet_transition_layer *buffer,
                                          size_t capacity, size_t *out_written, sleet_error *error);

/* ------------------------------------------------------------------------ */
/* Layout checks: the offsets above, checked by every compiler that reads   */
/* this header (and by the tests against the Swift types).                   */
/* ------------------------------------------------------------------------ */

#ifdef __cplusplus
#define SLEET_STATIC_ASSERT static_assert
#else
#define SLEET_STATIC_ASSERT _Static_assert
#endif

SLEET_STATIC_ASSERT(sizeof(float) == 4, "SleetKit needs 32-bit IEEE floats");
SLEET_STATIC_ASSERT(sizeof(double) == 8, "SleetKit needs 64-bit IEEE doubles");

SLEET_STATIC_ASSERT(sizeof(sleet_particle_instance) == 64, "sleet_particle_instance is 64 bytes");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, x) == 0, "x at 0");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, y) == 4, "y at 4");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, z) == 8, "z at 8");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, scale) == 12, "scale at 12");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, color) == 16, "color at 16");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, contents_rect) == 32, "contents_rect at 32");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, rotation) == 48, "rotation at 48");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, normalized_age) == 52, "normalized_age at 52");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, sprite) == 56, "sprite at 56");
SLEET_STATIC_ASSERT(offsetof(sleet_particle_instance, cell) == 60, "cell at 60");

SLEET_STATIC_ASSERT(sizeof(sleet_compact_particle_instance) == 32, "sleet_compact_particle_instance is 32 bytes");
SLEET_STATIC_ASSERT(offsetof(sleet_compact_particle_instance, x) == 0, "x at 0");
SLEET_STATIC_ASSERT(offsetof(sleet_compact_particle_instance, scale) == 12, "scale at 12");
SLEET_STATIC_ASSERT(offsetof(sleet_compact_particle_instance, rotation) == 16, "rotation at 16");
SLEET_STATIC_ASSERT(offsetof(sleet_compact_particle_instance, normalized_age) == 20, "normalized_age at 20");
SLEET_STATIC_ASSERT(offsetof(sleet_compact_particle_instance, color) == 24, "color at 24");
SLEET_STATIC_ASSERT(offsetof(sleet_compact_particle_instance, sprite) == 28, "sprite at 28");
SLEET_STATIC_ASSERT(offsetof(sleet_compact_particle_instance, cell) == 30, "cell at 30");

SLEET_STATIC_ASSERT(sizeof(sleet_checkerboard_tile) == 24, "sleet_checkerboard_tile is 24 bytes");
SLEET_STATIC_ASSERT(offsetof(sleet_checkerboard_tile, delay) == 0, "delay at 0");
SLEET_STATIC_ASSERT(offsetof(sleet_checkerboard_tile, duration) == 8, "duration at 8");
SLEET_STATIC_ASSERT(offsetof(sleet_checkerboard_tile, column) == 16, "column at 16");
SLEET_STATIC_ASSERT(offsetof(sleet_checkerboard_tile, row) == 20, "row at 20");

SLEET_STATIC_ASSERT(sizeof(sleet_rect) == 32, "sleet_rect is 32 bytes");
SLEET_STATIC_ASSERT(sizeof(sleet_transition_layer) == 192, "sleet_transition_layer is 192 bytes");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, transform) == 0, "transform at 0");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, corners) == 64, "corners at 64");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, texture_corners) == 96, "texture_corners at 96");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, color) == 128, "color at 128");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, mask) == 144, "mask at 144");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, opacity) == 176, "opacity at 176");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, depth) == 180, "depth at 180");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, content) == 184, "content at 184");
SLEET_STATIC_ASSERT(offsetof(sleet_transition_layer, has_mask) == 188, "has_mask at 188");

#undef SLEET_STATIC_ASSERT

#ifdef __cplusplus
}
#endif

#endif /* SLEETKIT_H */
