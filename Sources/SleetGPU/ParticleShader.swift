import CSleetKernels
import SleetParticles

/// The closed form as a GLSL ES 3.1 compute shader (it also compiles as
/// desktop GLSL 4.30+ with `#version 430`): three passes over the valid
/// window of the birth ring (`docs/gpu.md`).
///
/// 1. `SLEET_PASS 1`, 256 slots a workgroup: each invocation decides whether
///    its slot is drawn (alive by the death keys, cell not hidden); the
///    workgroup's count goes to `groupSums[group]`.
/// 2. `SLEET_PASS 2`, one invocation: the exclusive prefix sum of the group
///    counts in place, the total at `groupSums[groups]`.
/// 3. `SLEET_PASS 3`: each invocation recomputes its flag, its workgroup's
///    exclusive scan (shared memory, Hillis–Steele) gives its output index
///    (reversed for `oldestLast`); drawn slots evaluate the closed form and
///    write their `ParticleInstance` (64 bytes, the CPU layout; with
///    `SLEET_COMPACT` their 32-byte `CompactParticleInstance`) and sort key
///    (id, tracked z).
///
/// The declarations of the birth slot (`struct Birth`) and of the constants
/// row (`struct ConstantsRow`, read by `constantsRow` and `constantsCell`)
/// are generated from `Sources/CSleetKernels/sleet_layout.h`, the one
/// definition of both layouts (``layoutDeclarations``, ``rowAccessors``): member order and
/// lanes come from its offsets, never typed in the shader's text.
///
/// So the output is compact and in ring (birth) order, like the CPU's
/// evaluation before its sort. Sorting by id (several cells, `unordered` or
/// `additive`) or by depth (`backToFront`) is not done here.
///
/// **Floating point.** The age is `(tHigh − bHigh) + (tLow − bLow)`, marked
/// `precise` (`GL_EXT_gpu_shader5`, core in ES 3.2) so it is neither
/// reassociated nor fused; the closed form itself is left unmarked, so a
/// compiler may contract `a·b + c` into a fused multiply-add as engines
/// usually let it. `docs/gpu.md` derives the resulting bound against the
/// CPU. No division (1/lifetime comes with the slot) and no transcendental
/// function is evaluated.
public enum ParticleShader {
  /// The source of pass `pass` (1, 2 or 3): the `#version` line, the pass
  /// macro and ``body``.
  public static func source(pass: Int) -> String {
    source(pass: pass, layout: .full)
  }

  /// The source of pass `pass` (1, 2 or 3) writing instances in `layout`:
  /// for ``ParticleSystemConfiguration/InstanceLayout/compact`` pass 3 also
  /// defines `SLEET_COMPACT` and writes 32-byte `CompactParticleInstance`s
  /// (passes 1 and 2 are the same for both layouts).
  public static func source(pass: Int, layout: ParticleSystemConfiguration.InstanceLayout) -> String {
    precondition((1...3).contains(pass), "the shader has passes 1, 2 and 3")
    let compact = pass == 3 && layout == .compact ? "#define SLEET_COMPACT 1\n" : ""
    return "#version 310 es\n#define SLEET_PASS \(pass)\n" + compact + body
  }

  /// Workgroup size of passes 1 and 3.
  public static let groupSize = 256

  /// Everything after the `#version` and pass lines: the prelude,
  /// ``layoutDeclarations`` and the passes.
  public static let body = prelude + layoutDeclarations + passes

  /// A field of `sleet_gpu_birth_slot` as the shader declares it: its name
  /// (the C member's), GLSL type and byte offset (the header's constant).
  struct SlotField {
    var name: String
    var type: String
    var offset: Int
  }

  /// Every field of the birth slot, each with its `SLEET_SLOT_*` offset;
  /// the generated struct orders them by offset.
  static let slotFields: [SlotField] = [
    SlotField(name: "birthKeyLow", type: "uint", offset: SLEET_SLOT_BIRTH_KEY_LOW),
    SlotField(name: "birthKeyHigh", type: "uint", offset: SLEET_SLOT_BIRTH_KEY_HIGH),
    SlotField(name: "deathKeyLow", type: "uint", offset: SLEET_SLOT_DEATH_KEY_LOW),
    SlotField(name: "deathKeyHigh", type: "uint", offset: SLEET_SLOT_DEATH_KEY_HIGH),
    SlotField(name: "birthHigh", type: "float", offset: SLEET_SLOT_BIRTH_HIGH),
    SlotField(name: "birthLow", type: "float", offset: SLEET_SLOT_BIRTH_LOW),
    SlotField(name: "inverseLifetime", type: "float", offset: SLEET_SLOT_INVERSE_LIFETIME),
    SlotField(name: "constantsRow", type: "uint", offset: SLEET_SLOT_CONSTANTS_ROW),
    SlotField(name: "positionX", type: "float", offset: SLEET_SLOT_POSITION_X),
    SlotField(name: "positionY", type: "float", offset: SLEET_SLOT_POSITION_Y),
    SlotField(name: "positionZ", type: "float", offset: SLEET_SLOT_POSITION_Z),
    SlotField(name: "scale", type: "float", offset: SLEET_SLOT_SCALE),
    SlotField(name: "velocityX", type: "float", offset: SLEET_SLOT_VELOCITY_X),
    SlotField(name: "velocityY", type: "float", offset: SLEET_SLOT_VELOCITY_Y),
    SlotField(name: "velocityZ", type: "float", offset: SLEET_SLOT_VELOCITY_Z),
    SlotField(name: "spin", type: "float", offset: SLEET_SLOT_SPIN),
    SlotField(name: "red", type: "float", offset: SLEET_SLOT_RED),
    SlotField(name: "green", type: "float", offset: SLEET_SLOT_GREEN),
    SlotField(name: "blue", type: "float", offset: SLEET_SLOT_BLUE),
    SlotField(name: "alpha", type: "float", offset: SLEET_SLOT_ALPHA),
    SlotField(name: "idLow", type: "uint", offset: SLEET_SLOT_ID_LOW),
    SlotField(name: "idHigh", type: "uint", offset: SLEET_SLOT_ID_HIGH),
    SlotField(name: "lifetime", type: "float", offset: SLEET_SLOT_LIFETIME),
    SlotField(name: "reserved", type: "uint", offset: SLEET_SLOT_RESERVED),
  ]

  /// A field of `sleet_constants_row` as the shader reads it: its name, GLSL
  /// type, first lane (the header's constant) and lanes.
  struct RowField {
    var name: String
    var type: String
    var lane: Int
    var lanes: Int
  }

  /// The constants row's fields the shader reads, each at its `SLEET_ROW_*`
  /// lane.
  static let rowFields: [RowField] = [
    RowField(name: "halfAcceleration", type: "vec3", lane: SLEET_ROW_HALF_ACCELERATION, lanes: 3),
    RowField(name: "scaleSpeed", type: "float", lane: SLEET_ROW_SCALE_SPEED, lanes: 1),
    RowField(name: "colorSpeed", type: "vec4", lane: SLEET_ROW_COLOR_SPEED, lanes: 4),
    RowField(name: "contentsRect", type: "vec4", lane: SLEET_ROW_CONTENTS_RECT, lanes: 4),
    RowField(name: "sprite", type: "uint", lane: SLEET_ROW_SPRITE, lanes: 1),
    RowField(name: "cell", type: "uint", lane: SLEET_ROW_CELL, lanes: 1),
    RowField(name: "compactSpriteCell", type: "uint", lane: SLEET_ROW_COMPACT_SPRITE_CELL, lanes: 1),
  ]

  /// The row lane `lane` as the shader reads it from the row's vec4s
  /// `k0`, `k1`, …: `k<lane / 4>.<x, y, z or w>`.
  static func rowLane(_ lane: Int) -> String {
    "k\(lane / 4).\(["x", "y", "z", "w"][lane % 4])"
  }

  /// The shader's structs generated from `sleet_layout.h`: `struct Birth`
  /// (the members of `sleet_gpu_birth_slot` in offset order, which std430
  /// packs at those offsets: 4-byte scalars, no gaps, checked here) and
  /// `struct ConstantsRow` (the fields of ``rowAccessors``).
  static let layoutDeclarations: String = {
    let fields = slotFields.sorted { $0.offset < $1.offset }
    for (i, field) in fields.enumerated() {
      precondition(field.offset == 4 * i, "the birth slot is 4-byte scalars without gaps (sleet_layout.h)")
    }
    precondition(4 * fields.count == GPUBirthSlot.byteCount, "every field of the birth slot is declared")
    var text = "// GPUBirthSlot: sleet_gpu_birth_slot of sleet_layout.h, std430.\nstruct Birth {\n"
    for field in fields { text += "  \(field.type) \(field.name);\n" }
    text += "};\n// The fields of sleet_constants_row (sleet_layout.h) the shader reads.\nstruct ConstantsRow {\n"
    for field in rowFields { text += "  \(field.type) \(field.name);\n" }
    return text + "};\n"
  }()

  /// The constants row's readers generated from `sleet_layout.h`:
  /// `constantsRow(row)` reads row `row` of the table's vec4s and takes each
  /// field from its lanes; `constantsCell(row)` reads the cell lane alone.
  static let rowAccessors: String = {
    let vec4s = SLEET_ROW_FLOATS / 4
    precondition(4 * vec4s == SLEET_ROW_FLOATS, "a constants row is whole vec4s")
    func value(_ field: RowField) -> String {
      let lanes = (field.lane..<field.lane + field.lanes).map(rowLane)
      switch field.type {
      case "uint": return "floatBitsToUint(\(lanes[0]))"
      case "float": return lanes[0]
      default: return "\(field.type)(\(lanes.joined(separator: ", ")))"
      }
    }
    let loads = (0..<vec4s).map { "  vec4 k\($0) = constantsRows[row * \(vec4s)u + \($0)u];\n" }.joined()
    var text = "ConstantsRow constantsRow(uint row) {\n" + loads
    text += "  return ConstantsRow(\(rowFields.map(value).joined(separator: ", ")));\n}\n"
    let cell = rowFields.first { $0.name == "cell" }!
    text += "uint constantsCell(uint row) {\n"
    text += "  vec4 k\(cell.lane / 4) = constantsRows[row * \(vec4s)u + \(cell.lane / 4)u];\n"
    text += "  return \(value(cell));\n}\n"
    return text
  }()

  /// The extensions and precisions.
  static let prelude = """
    #if defined(GL_EXT_gpu_shader5)
    #extension GL_EXT_gpu_shader5 : enable
    #define SLEET_PRECISE precise
    #elif defined(GL_OES_gpu_shader5)
    #extension GL_OES_gpu_shader5 : enable
    #define SLEET_PRECISE precise
    #else
    #define SLEET_PRECISE
    #endif
    precision highp float;
    precision highp int;

    """

  /// The buffers, uniforms and passes (after ``layoutDeclarations``;
  /// ``rowAccessors`` after the constants buffer).
  static let passes = """
    // ParticleInstance: 64 bytes, the CPU render layout.
    struct Instance {
      float x; float y; float z; float scale;
      float r; float g; float b; float a;
      float rectX; float rectY; float rectW; float rectH;
      float rotation; float normalizedAge; uint sprite; uint cell;
    };

    layout(std430, binding = 0) readonly buffer Births { Birth births[]; };
    // Constants rows as vec4s: sleet_constants_row (read by constantsRow below).
    layout(std430, binding = 1) readonly buffer Constants { vec4 constantsRows[]; };
    """ + rowAccessors + """
      layout(std430, binding = 2) buffer GroupSums { uint groupSums[]; };
      // CompactParticleInstance: 32 bytes (SLEET_COMPACT): colour as
      // R8G8B8A8_UNORM (r in the low byte), UInt16 sprite | cell << 16.
      struct CompactInstance {
        float x; float y; float z; float scale;
        float rotation; float normalizedAge; uint color; uint spriteCell;
      };

      #if defined(SLEET_COMPACT)
      layout(std430, binding = 3) writeonly buffer Instances { CompactInstance instances[]; };
      #else
      layout(std430, binding = 3) writeonly buffer Instances { Instance instances[]; };
      #endif
      // Per output: id lo, id hi, tracked z bits, 0.
      layout(std430, binding = 4) writeonly buffer SortKeys { uvec4 sortKeys[]; };

      uniform uvec2 timeKey;      // ordered key of t: lo, hi
      uniform vec2 timeSplit;     // Float(t), Float(t - Double(Float(t)))
      uniform uvec4 ring;         // start, count, capacity, flags (1: flatten z, 2: reverse)
      uniform uint hiddenCells[8];

      #if SLEET_PASS == 2
      layout(local_size_x = 1) in;
      void main() {
        uint groups = (ring.y + 255u) / 256u;
        uint total = 0u;
        for (uint g = 0u; g < groups; g++) {
          uint n = groupSums[g];
          groupSums[g] = total;
          total += n;
        }
        groupSums[groups] = total;
      }
      #else
      layout(local_size_x = 256) in;
      shared uint scan[256];

      bool keyLess(uint aLo, uint aHi, uint bLo, uint bHi) {
        return aHi < bHi || (aHi == bHi && aLo < bLo);
      }

      // Whether logical slot i of the window is drawn; its ring slot in `slot`.
      bool isDrawn(uint i, out uint slot) {
        slot = 0u;
        if (i >= ring.y) return false;
        slot = (ring.x + i) % ring.z;
        Birth s = births[slot];
        if (keyLess(timeKey.x, timeKey.y, s.birthKeyLow, s.birthKeyHigh)) return false;
        if (!keyLess(timeKey.x, timeKey.y, s.deathKeyLow, s.deathKeyHigh)) return false;
        uint cell = constantsCell(s.constantsRow);
        return ((hiddenCells[cell >> 5u] >> (cell & 31u)) & 1u) == 0u;
      }

      // Inclusive scan of the workgroup's flags in scan[]; returns the exclusive prefix.
      uint exclusivePrefix(bool drawn) {
        uint lid = gl_LocalInvocationID.x;
        uint flag = drawn ? 1u : 0u;
        scan[lid] = flag;
        memoryBarrierShared();
        barrier();
        for (uint offset = 1u; offset < 256u; offset <<= 1u) {
          uint v = lid >= offset ? scan[lid - offset] : 0u;
          memoryBarrierShared();
          barrier();
          scan[lid] += v;
          memoryBarrierShared();
          barrier();
        }
        return scan[lid] - flag;
      }

      float atLeastZero(float x) { return x < 0.0 ? 0.0 : x; }
      float unitInterval(float x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

      void main() {
        uint slot;
        bool drawn = isDrawn(gl_GlobalInvocationID.x, slot);
        uint local = exclusivePrefix(drawn);
        #if SLEET_PASS == 1
        if (gl_LocalInvocationID.x == 255u) groupSums[gl_WorkGroupID.x] = scan[255];
        #else
        if (!drawn) return;
        uint groups = (ring.y + 255u) / 256u;
        uint o = groupSums[gl_WorkGroupID.x] + local;
        if ((ring.w & 2u) != 0u) o = groupSums[groups] - 1u - o;
        Birth s = births[slot];
        ConstantsRow k = constantsRow(s.constantsRow);
        SLEET_PRECISE float a = (timeSplit.x - s.birthHigh) + (timeSplit.y - s.birthLow);
        float aa = a * a;
        vec3 p = vec3(s.positionX, s.positionY, s.positionZ) + vec3(s.velocityX, s.velocityY, s.velocityZ) * a
          + k.halfAcceleration * aa;
        float z = (ring.w & 1u) != 0u ? 0.0 : p.z;
        float scale = atLeastZero(s.scale + k.scaleSpeed * a);
        vec4 color = vec4(
          unitInterval(s.red + k.colorSpeed.x * a), unitInterval(s.green + k.colorSpeed.y * a),
          unitInterval(s.blue + k.colorSpeed.z * a), unitInterval(s.alpha + k.colorSpeed.w * a));
        float rotation = s.spin * a;
        float n = a * s.inverseLifetime;
        float belowOne = uintBitsToFloat(0x3f7fffffu);
        float normalizedAge = n > belowOne ? belowOne : n;
        #if defined(SLEET_COMPACT)
        // unorm8 as the CPU packs it: 255·c rounded (one correctly rounded
        // product, no add to fuse it with), then to nearest, ties to even.
        uvec4 q = uvec4(roundEven(color * 255.0));
        instances[o] = CompactInstance(
          p.x, p.y, z, scale, rotation, normalizedAge, q.x | (q.y << 8u) | (q.z << 16u) | (q.w << 24u),
          k.compactSpriteCell);
        #else
        instances[o] = Instance(
          p.x, p.y, z, scale, color.r, color.g, color.b, color.a, k.contentsRect.x, k.contentsRect.y,
          k.contentsRect.z, k.contentsRect.w, rotation, normalizedAge, k.sprite, k.cell);
        #endif
        sortKeys[o] = uvec4(s.idLow, s.idHigh, floatBitsToUint(p.z), 0u);
        #endif
      }
      #endif
      """
}
