#!/usr/bin/env python3
"""Independent reference for seed 004 (tilt3D) mid-phase geometry.

Computes, from `transitions.md` alone and without SleetKit, the projected
corners of the tilted screen's layer while its transform is half way through
a phase, with the CSS Transforms Level 2 interpolation of matrices
(decompose: perspective, translation, scale, skew, quaternion; interpolate
the parts, the quaternion by slerp; recompose). The numbers are pasted into
`Tests/SleetTransitionsTests/ViewStyleTests.swift`: the phase-end corners
(t1, t2: no interpolation) in `tiltProjectedCornersAtPhaseOneEnd`, the
mid-phase corners in `tiltMidPhaseCornersFollowTheDecomposition` (tagged
`needsDecomposition`).

Conventions (transitions.md): CATransform3D row vectors, p' = p . M; Apple's
CATransform3DScale/Rotate/Translate(t, ...) return op . t, so

    P  = identity with m34 = -1/900
    t1 = R_x(15 deg) . S(0.95, 0.95, 1) . P
    t2 = S(0.8, 0.8, 1) . T(0, -0.08 H, 0) . P

The layer is the W x H screen centred in the container, its transform applied
about its centre: corner (u, v) -> [(u - 1/2) W, (v - 1/2) H, 0, 1] . M, then
the perspective divide, then + (W/2, H/2).

The decomposition below follows the CSS Transforms Level 2 pseudo-code
("Decomposing a 3D matrix", "Interpolation of decomposed 3D matrix values",
"Recomposing to a 3D matrix"), whose matrix[i][j] is the row-vector entry
m(i+1)(j+1) (translation in matrix[3][0..2], perspective in matrix[0..2][3]).
Its quaternion signs are taken so that recomposition inverts decomposition
(x ~ row[2][1] - row[1][2], ... as WebKit and Chromium do: the draft's three
sign tests are stated the other way round and would transpose the rotation);
the self-checks at the end verify the round trip.

Run: python3 docs/tools/tilt3d_reference.py
"""

import math

import numpy as np

EASE = (0.42, 0.0, 0.58, 1.0)


def ease_in_ease_out(x):
  """y(s) where x(s) = x for the cubic Bezier (0.42, 0, 0.58, 1), by bisection."""
  if x <= 0:
    return 0.0
  if x >= 1:
    return 1.0
  x1, y1, x2, y2 = EASE
  bx = lambda s: 3 * (1 - s) ** 2 * s * x1 + 3 * (1 - s) * s * s * x2 + s ** 3
  by = lambda s: 3 * (1 - s) ** 2 * s * y1 + 3 * (1 - s) * s * s * y2 + s ** 3
  lo, hi = 0.0, 1.0
  for _ in range(200):
    mid = (lo + hi) / 2
    if bx(mid) < x:
      lo = mid
    else:
      hi = mid
  return by((lo + hi) / 2)


def rotation_x(angle):
  """CATransform3DMakeRotation(angle, 1, 0, 0) (row vectors: m23 = sin, m32 = -sin)."""
  c, s = math.cos(angle), math.sin(angle)
  m = np.identity(4)
  m[1, 1], m[1, 2] = c, s
  m[2, 1], m[2, 2] = -s, c
  return m


def scale(sx, sy, sz):
  return np.diag([sx, sy, sz, 1.0])


def translation(tx, ty, tz):
  m = np.identity(4)
  m[3, :3] = [tx, ty, tz]
  return m


def perspective(eye):
  m = np.identity(4)
  m[2, 3] = -1.0 / eye
  return m


def tilt_transforms(height):
  p = perspective(900.0)
  t1 = rotation_x(15 * math.pi / 180) @ scale(0.95, 0.95, 1) @ p
  t2 = scale(0.8, 0.8, 1) @ translation(0, -0.08 * height, 0) @ p
  return t1, t2


def decompose(matrix):
  m = np.array(matrix, dtype=float)
  assert m[3, 3] != 0
  m = m / m[3, 3]
  pm = m.copy()
  pm[0:3, 3] = 0
  pm[3, 3] = 1
  assert abs(np.linalg.det(pm)) > 1e-12
  if m[0, 3] != 0 or m[1, 3] != 0 or m[2, 3] != 0:
    rhs = m[:, 3].copy()
    persp = np.linalg.inv(pm) @ rhs  # = rhs . transpose(inverse(pm))
  else:
    persp = np.array([0.0, 0.0, 0.0, 1.0])
  translate = m[3, 0:3].copy()
  row = [m[i, 0:3].copy() for i in range(3)]
  sc = np.zeros(3)
  skew = np.zeros(3)
  sc[0] = np.linalg.norm(row[0])
  row[0] = row[0] / sc[0]
  skew[0] = row[0] @ row[1]
  row[1] = row[1] - skew[0] * row[0]
  sc[1] = np.linalg.norm(row[1])
  row[1] = row[1] / sc[1]
  skew[0] /= sc[1]
  skew[1] = row[0] @ row[2]
  row[2] = row[2] - skew[1] * row[0]
  skew[2] = row[1] @ row[2]
  row[2] = row[2] - skew[2] * row[1]
  sc[2] = np.linalg.norm(row[2])
  row[2] = row[2] / sc[2]
  skew[1] /= sc[2]
  skew[2] /= sc[2]
  if row[0] @ np.cross(row[1], row[2]) < 0:
    sc = -sc
    row = [-r for r in row]
  q = np.array([
    0.5 * math.sqrt(max(1 + row[0][0] - row[1][1] - row[2][2], 0)),
    0.5 * math.sqrt(max(1 - row[0][0] + row[1][1] - row[2][2], 0)),
    0.5 * math.sqrt(max(1 - row[0][0] - row[1][1] + row[2][2], 0)),
    0.5 * math.sqrt(max(1 + row[0][0] + row[1][1] + row[2][2], 0)),
  ])
  # Signs consistent with the recomposition matrix below.
  if row[2][1] < row[1][2]:
    q[0] = -q[0]
  if row[0][2] < row[2][0]:
    q[1] = -q[1]
  if row[1][0] < row[0][1]:
    q[2] = -q[2]
  return dict(perspective=persp, translate=translate, scale=sc, skew=skew, quaternion=q)


def slerp(qa, qb, alpha):
  product = float(np.clip(qa @ qb, -1.0, 1.0))
  if abs(product) == 1.0:
    return qa.copy()
  theta = math.acos(product)
  w = math.sin(alpha * theta) / math.sqrt(1 - product * product)
  return qa * (math.cos(alpha * theta) - product * w) + qb * w


def interpolate(a, b, alpha):
  lerp = lambda x, y: x + (y - x) * alpha
  return dict(
    perspective=lerp(a["perspective"], b["perspective"]),
    translate=lerp(a["translate"], b["translate"]),
    scale=lerp(a["scale"], b["scale"]),
    skew=lerp(a["skew"], b["skew"]),
    quaternion=slerp(a["quaternion"], b["quaternion"], alpha),
  )


def recompose(d):
  # In row-vector terms the result is S . K . R . T . P' (scale first).
  m = np.identity(4)
  m[:, 3] = d["perspective"]
  for i in range(4):
    for j in range(3):
      m[3, i] += d["translate"][j] * m[j, i]
  x, y, z, w = d["quaternion"]
  r = np.identity(4)
  r[0, 0] = 1 - 2 * (y * y + z * z)
  r[0, 1] = 2 * (x * y - z * w)
  r[0, 2] = 2 * (x * z + y * w)
  r[1, 0] = 2 * (x * y + z * w)
  r[1, 1] = 1 - 2 * (x * x + z * z)
  r[1, 2] = 2 * (y * z - x * w)
  r[2, 0] = 2 * (x * z - y * w)
  r[2, 1] = 2 * (y * z + x * w)
  r[2, 2] = 1 - 2 * (x * x + y * y)
  m = r @ m  # the pseudo-code's multiply(matrix, rotationMatrix)
  sk = d["skew"]
  if sk[2]:
    k = np.identity(4)
    k[2, 1] = sk[2]
    m = k @ m
  if sk[1]:
    k = np.identity(4)
    k[2, 0] = sk[1]
    m = k @ m
  if sk[0]:
    k = np.identity(4)
    k[1, 0] = sk[0]
    m = k @ m
  for i in range(3):
    m[i, :] *= d["scale"][i]
  return m


def interpolated(a, b, alpha):
  return recompose(interpolate(decompose(a), decompose(b), alpha))


def corners(m, width, height):
  """Projected TL TR BR BL of the W x H layer centred in the container."""
  out = []
  for u, v in [(0, 0), (1, 0), (1, 1), (0, 1)]:
    p = np.array([(u - 0.5) * width, (v - 0.5) * height, 0.0, 1.0]) @ m
    out.append((p[0] / p[3] + width / 2, p[1] / p[3] + height / 2))
  return out


def self_checks():
  for h in (844.0, 768.0, 568.0):
    t1, t2 = tilt_transforms(h)
    for m in (np.identity(4), t1, t2):
      assert np.allclose(recompose(decompose(m)), m, atol=1e-12), m
    for a, b in ((np.identity(4), t1), (t1, t2), (t2, t1), (t1, np.identity(4))):
      assert np.allclose(interpolated(a, b, 0), a, atol=1e-12)
      assert np.allclose(interpolated(a, b, 1), b, atol=1e-12)
  # A pure rotation interpolates by angle: half of 15 degrees is 7.5 degrees.
  half = interpolated(np.identity(4), rotation_x(15 * math.pi / 180), 0.5)
  assert np.allclose(half, rotation_x(7.5 * math.pi / 180), atol=1e-12)
  # A pure perspective interpolates its m34 linearly.
  assert np.allclose(interpolated(np.identity(4), perspective(900), 0.5), perspective(1800), atol=1e-15)
  # ease(1/2) = 1/2 for this symmetric curve.
  assert abs(ease_in_ease_out(0.5) - 0.5) < 1e-15


def main():
  self_checks()
  print("self-checks passed (round trip, end points, pure rotation, pure perspective)")
  print(f"ease(0.25) = {ease_in_ease_out(0.25)!r}")
  for w, h in ((390.0, 844.0), (1024.0, 768.0)):
    t1, t2 = tilt_transforms(h)
    ident = np.identity(4)
    print(f"\ncontainer {w:g} x {h:g}")
    # Phase ends: no interpolation involved (the transform is exactly t1 or t2).
    for name, m in (("t1 (t = 0.3)", t1), ("t2 (t = 0.6)", t2)):
      print(f"  {name} corners TL TR BR BL:", ", ".join(f"({x:.6f}, {y:.6f})" for x, y in corners(m, w, h)))
    cases = [
      # name, time, phase start, a, b
      ("present from-layer", 0.15, ident, t1),
      ("present from-layer", 0.45, t1, t2),
      ("dismiss to-layer", 0.15, t2, t1),
      ("dismiss to-layer", 0.45, t1, ident),
      ("present from-layer", 0.075, ident, t1),
    ]
    for name, t, a, b in cases:
      local = (t - (0.3 if t > 0.3 else 0.0)) / 0.3
      alpha = ease_in_ease_out(local)
      m = interpolated(a, b, alpha)
      c = corners(m, w, h)
      entrywise = corners(a + (b - a) * alpha, w, h)
      diff = max(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for p, q in zip(c, entrywise))
      print(f"  {name} t = {t}: fraction {alpha!r}; max |decomposed - entry-wise| = {diff:.4f} pt")
      print("    corners TL TR BR BL:", ", ".join(f"({x:.6f}, {y:.6f})" for x, y in c))


if __name__ == "__main__":
  main()
