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

  /// Everything after the `#version` and pass lines.
  public static let body = """
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

    // GPUBirthSlot: 96 bytes, std430 (docs/gpu.md).
    struct Birth {
      uint birthKeyLo; uint birthKeyHi; uint deathKeyLo; uint deathKeyHi;
      float birthHigh; float birthLow; float inverseLifetime; uint constantsRow;
      float px; float py; float pz; float scale;
      float vx; float vy; float vz; float spin;
      float r; float g; float b; float a;
      uint idLo; uint idHi; float lifetime; uint reserved;
    };
    // ParticleInstance: 64 bytes, the CPU render layout.
    struct Instance {
      float x; float y; float z; float scale;
      float r; float g; float b; float a;
      float rectX; float rectY; float rectW; float rectH;
      float rotation; float normalizedAge; uint sprite; uint cell;
    };

    layout(std430, binding = 0) readonly buffer Births { Birth births[]; };
    // Constants rows: 4 vec4 a row (½acc xyz, scaleSpeed | colourSpeed |
    // contentsRect | sprite bits, cell bits, compact bits, 0).
    layout(std430, binding = 1) readonly buffer Constants { vec4 constantsRows[]; };
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
      if (keyLess(timeKey.x, timeKey.y, s.birthKeyLo, s.birthKeyHi)) return false;
      if (!keyLess(timeKey.x, timeKey.y, s.deathKeyLo, s.deathKeyHi)) return false;
      uint cell = floatBitsToUint(constantsRows[s.constantsRow * 4u + 3u].y);
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
      uint row = s.constantsRow * 4u;
      vec4 k0 = constantsRows[row];       // ½acc xyz, scale speed
      vec4 k1 = constantsRows[row + 1u];  // colour speed
      vec4 k2 = constantsRows[row + 2u];  // contentsRect
      vec4 k3 = constantsRows[row + 3u];  // sprite, cell, compact sprite | cell << 16
      SLEET_PRECISE float a = (timeSplit.x - s.birthHigh) + (timeSplit.y - s.birthLow);
      float aa = a * a;
      vec3 p = vec3(s.px, s.py, s.pz) + vec3(s.vx, s.vy, s.vz) * a + k0.xyz * aa;
      float z = (ring.w & 1u) != 0u ? 0.0 : p.z;
      float scale = atLeastZero(s.scale + k0.w * a);
      vec4 color = vec4(
        unitInterval(s.r + k1.x * a), unitInterval(s.g + k1.y * a),
        unitInterval(s.b + k1.z * a), unitInterval(s.a + k1.w * a));
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
        floatBitsToUint(k3.z));
      #else
      instances[o] = Instance(
        p.x, p.y, z, scale, color.r, color.g, color.b, color.a, k2.x, k2.y, k2.z, k2.w,
        rotation, normalizedAge, floatBitsToUint(k3.x), floatBitsToUint(k3.y));
      #endif
      sortKeys[o] = uvec4(s.idLo, s.idHi, floatBitsToUint(p.z), 0u);
      #endif
    }
    #endif
    """
}
