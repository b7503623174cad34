// The memory layouts shared by the C kernels, the Swift code and the GPU
// shader, each defined once, here:
//
//   sleet_slab_block      a block of eight particles in ParticleStore's slab
//   sleet_constants_row   a row of ParticleConstantsTable (per cell and
//                         timeline segment)
//   sleet_gpu_birth_slot  a slot of the GPU birth ring (GPUBirthSlot)
//
// How: each layout is a C struct, the only place its fields are ordered, and
// an anonymous enum of offsets derived from the struct with `offsetof` and
// `sizeof`, so no offset is typed twice. The C kernels read and write
// through the enum constants; Swift imports the constants as `Int`
// constants, which fold into the code like literals (ParticleStore,
// ParticleConstantsTable, BirthRing), and GPUBirthSlot stores a
// sleet_gpu_birth_slot, so its Swift layout is this struct. The shader's
// declarations of the birth slot and of the constants row are generated
// from the same constants (ParticleShader in SleetGPU). The
// `_Static_assert`s state what the kernels rely on beyond the offsets:
// sizes, alignments and lane counts. MemoryLayoutAgreementTests
// (SleetParticlesTests) and ShaderLayoutAgreementTests (SleetGPUTests) fail
// when the Swift accessors or the generated shader disagree with these
// definitions.
//
// Moving a field is one edit: reorder the struct's members. Adding a field
// adds a member, its enum constant, and its readers and writers (the
// kernels, the Swift code named above, and for the birth slot the shader's
// field list in ParticleShader and its accessor in GPUBirthSlot).
// docs/particles.md and docs/gpu.md describe what the fields mean.
//
// Editing this header: see sleet_kernels.h (SwiftPM does not rebuild
// importers when only a header changes).
#ifndef SLEET_LAYOUT_H
#define SLEET_LAYOUT_H

#include <stddef.h>

// ---------------------------------------------------------------------------
// The slab block: eight particles, field by field (an array of structures of
// arrays). Each field holds one value per lane, lane l at field offset + l ·
// (size of the value); a vector field (position, velocity, colour) is one
// eight-lane array per component, component c at field offset + c ·
// SLEET_SLAB_SLOT_BYTES. Only what varies from particle to particle is
// here; what a cell shares in one segment is in its constants row
// (`constantsRow` indexes the table). Ids live in a side array of the store.
typedef struct {
  double birthTime[8];       // seconds, emitter-local time
  float lifetime[8];         // seconds; 0 in lanes past the store's count
  unsigned constantsRow[8];  // row of the constants table
  float position[3][8];      // p0 x, y, z, points
  float velocity[3][8];      // v0 x, y, z, points per second
  float scale[8];            // s0
  float spin[8];             // radians per second
  float color[4][8];         // c0 r, g, b, a
} sleet_slab_block;

// Byte offsets in a block of lane 0 of each field (component 0 for the
// vector fields), and the block's sizes.
enum {
  SLEET_SLAB_LANES = 8,
  // The bytes of one eight-lane 4-byte field: a slot.
  SLEET_SLAB_SLOT_BYTES = sizeof(float[8]),
  SLEET_SLAB_BLOCK_BYTES = sizeof(sleet_slab_block),
  SLEET_SLAB_BIRTH_TIME = offsetof(sleet_slab_block, birthTime),
  SLEET_SLAB_LIFETIME = offsetof(sleet_slab_block, lifetime),
  SLEET_SLAB_CONSTANTS_ROW = offsetof(sleet_slab_block, constantsRow),
  SLEET_SLAB_POSITION = offsetof(sleet_slab_block, position),
  SLEET_SLAB_VELOCITY = offsetof(sleet_slab_block, velocity),
  SLEET_SLAB_SCALE = offsetof(sleet_slab_block, scale),
  SLEET_SLAB_SPIN = offsetof(sleet_slab_block, spin),
  SLEET_SLAB_COLOR = offsetof(sleet_slab_block, color),
};

// The kernels load and store every field of a block as whole 32-byte
// vectors (64 bytes for the birth times) from a 64-byte-aligned slab, and
// the store copies a lane as its birth time plus one 4-byte word per slot.
// A field added to the block keeps it a multiple of 64 bytes (pad with a
// reserved slot if need be).
_Static_assert(sizeof(sleet_slab_block) % 64 == 0, "blocks keep the slab's 64-byte alignment");
_Static_assert(sizeof(sleet_slab_block) % SLEET_SLAB_SLOT_BYTES == 0, "a block is whole slots");
_Static_assert(SLEET_SLAB_BIRTH_TIME % 64 == 0, "the birth times are one aligned 64-byte vector");
_Static_assert(SLEET_SLAB_LIFETIME % 32 == 0 && SLEET_SLAB_CONSTANTS_ROW % 32 == 0 && SLEET_SLAB_POSITION % 32 == 0 &&
                   SLEET_SLAB_VELOCITY % 32 == 0 && SLEET_SLAB_SCALE % 32 == 0 && SLEET_SLAB_SPIN % 32 == 0 &&
                   SLEET_SLAB_COLOR % 32 == 0,
               "every 4-byte field is an aligned 32-byte vector");

// ---------------------------------------------------------------------------
// The constants row: what every particle of one cell born in one segment of
// the timeline shares, 16 4-byte lanes. The kernels index a row as floats,
// so the enum below gives lane numbers, not bytes.
typedef struct {
  float halfAcceleration[3];    // ½·acceleration x, y, z
  float scaleSpeed;             // scale per second
  float colorSpeed[4];          // colour per second r, g, b, a
  float contentsRect[4];        // x, y, w, h
  unsigned sprite;              // sprite number (`UInt32` bits in a float lane)
  unsigned cell;                // cell number (`UInt32` bits)
  unsigned compactSpriteCell;   // CompactParticleInstance's word: UInt16 sprite (0xFFFF for none) | cell << 16
  unsigned reserved;            // 0
} sleet_constants_row;

// Lane (4-byte index) in a row of each field (component 0 for the arrays),
// and the row's length in lanes.
enum {
  SLEET_ROW_FLOATS = sizeof(sleet_constants_row) / sizeof(float),
  SLEET_ROW_HALF_ACCELERATION = offsetof(sleet_constants_row, halfAcceleration) / sizeof(float),
  SLEET_ROW_SCALE_SPEED = offsetof(sleet_constants_row, scaleSpeed) / sizeof(float),
  SLEET_ROW_COLOR_SPEED = offsetof(sleet_constants_row, colorSpeed) / sizeof(float),
  SLEET_ROW_CONTENTS_RECT = offsetof(sleet_constants_row, contentsRect) / sizeof(float),
  SLEET_ROW_SPRITE = offsetof(sleet_constants_row, sprite) / sizeof(float),
  SLEET_ROW_CELL = offsetof(sleet_constants_row, cell) / sizeof(float),
  SLEET_ROW_COMPACT_SPRITE_CELL = offsetof(sleet_constants_row, compactSpriteCell) / sizeof(float),
};

// Rows are 64 bytes: the gathered kernel loads a row as two 32-byte halves
// and transposes eight rows into 16 field vectors, the Swift lane path loads
// a row as four 16-byte groups, the table is 64-byte aligned, and the shader
// reads a row as four vec4s.
_Static_assert(sizeof(sleet_constants_row) == 16 * sizeof(float), "a row is 16 lanes");
_Static_assert(sizeof(unsigned) == sizeof(float), "the integer lanes are float lanes");

// ---------------------------------------------------------------------------
// The GPU birth slot: one particle's birth record as the shader reads it,
// 4-byte scalars only, so its std430 layout is this packing (no padding; the
// array stride is the struct's size). The keys are GPUBirthSlot.orderedKey
// of a `Double` time, split in 32-bit halves; birthHigh + birthLow carry the
// birth time to a shader without `double` (docs/gpu.md, "GPUBirthSlot").
typedef struct {
  unsigned birthKeyLow, birthKeyHigh;  // ordered key of the birth time
  unsigned deathKeyLow, deathKeyHigh;  // ordered key of the first dead time
  float birthHigh, birthLow;           // Float(b), Float(b − Double(birthHigh))
  float inverseLifetime;               // 1 / lifetime, the CPU kernel's Float division
  unsigned constantsRow;               // row of the constants table
  float positionX, positionY, positionZ;
  float scale;
  float velocityX, velocityY, velocityZ;
  float spin;
  float red, green, blue, alpha;
  unsigned idLow, idHigh;  // ParticleID
  float lifetime;          // seconds (informative: the death key is the exact test)
  unsigned reserved;       // 0
} sleet_gpu_birth_slot;

// Byte offsets of the slot's fields, and its size (the std430 array stride).
enum {
  SLEET_SLOT_BYTES = sizeof(sleet_gpu_birth_slot),
  SLEET_SLOT_BIRTH_KEY_LOW = offsetof(sleet_gpu_birth_slot, birthKeyLow),
  SLEET_SLOT_BIRTH_KEY_HIGH = offsetof(sleet_gpu_birth_slot, birthKeyHigh),
  SLEET_SLOT_DEATH_KEY_LOW = offsetof(sleet_gpu_birth_slot, deathKeyLow),
  SLEET_SLOT_DEATH_KEY_HIGH = offsetof(sleet_gpu_birth_slot, deathKeyHigh),
  SLEET_SLOT_BIRTH_HIGH = offsetof(sleet_gpu_birth_slot, birthHigh),
  SLEET_SLOT_BIRTH_LOW = offsetof(sleet_gpu_birth_slot, birthLow),
  SLEET_SLOT_INVERSE_LIFETIME = offsetof(sleet_gpu_birth_slot, inverseLifetime),
  SLEET_SLOT_CONSTANTS_ROW = offsetof(sleet_gpu_birth_slot, constantsRow),
  SLEET_SLOT_POSITION_X = offsetof(sleet_gpu_birth_slot, positionX),
  SLEET_SLOT_POSITION_Y = offsetof(sleet_gpu_birth_slot, positionY),
  SLEET_SLOT_POSITION_Z = offsetof(sleet_gpu_birth_slot, positionZ),
  SLEET_SLOT_SCALE = offsetof(sleet_gpu_birth_slot, scale),
  SLEET_SLOT_VELOCITY_X = offsetof(sleet_gpu_birth_slot, velocityX),
  SLEET_SLOT_VELOCITY_Y = offsetof(sleet_gpu_birth_slot, velocityY),
  SLEET_SLOT_VELOCITY_Z = offsetof(sleet_gpu_birth_slot, velocityZ),
  SLEET_SLOT_SPIN = offsetof(sleet_gpu_birth_slot, spin),
  SLEET_SLOT_RED = offsetof(sleet_gpu_birth_slot, red),
  SLEET_SLOT_GREEN = offsetof(sleet_gpu_birth_slot, green),
  SLEET_SLOT_BLUE = offsetof(sleet_gpu_birth_slot, blue),
  SLEET_SLOT_ALPHA = offsetof(sleet_gpu_birth_slot, alpha),
  SLEET_SLOT_ID_LOW = offsetof(sleet_gpu_birth_slot, idLow),
  SLEET_SLOT_ID_HIGH = offsetof(sleet_gpu_birth_slot, idHigh),
  SLEET_SLOT_LIFETIME = offsetof(sleet_gpu_birth_slot, lifetime),
  SLEET_SLOT_RESERVED = offsetof(sleet_gpu_birth_slot, reserved),
};

// std430 lays out a struct of 4-byte scalars as C does here: each at the
// next 4-byte boundary, no padding, the array stride their total. A member
// of wider alignment (a `double`, a vector) would break that agreement.
_Static_assert(_Alignof(sleet_gpu_birth_slot) == 4, "the slot holds 4-byte scalars only");

#endif
