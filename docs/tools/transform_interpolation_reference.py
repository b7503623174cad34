#!/usr/bin/env python3
"""Reference implementation of CSS Transforms Level 2 matrix interpolation.

This script generated the expected constants of
`Tests/SleetMathTests/Transform3DInterpolationTests.swift` (the "15° tilt"
cases identity -> t1 -> t2 -> identity, and identity -> g). It is a second, independent implementation of the algorithm of
https://drafts.csswg.org/css-transforms-2/#interpolation-of-3d-matrices
written from the spec's pseudo-code (sections "Decomposing a 3D matrix",
"Interpolation of decomposed 3D matrix values", "Recomposing to a 3D matrix"),
with numpy doing the 4x4 determinant, inverse and transpose the spec calls for.
It shares no code with the Swift implementation.

Layout: a matrix is a 4x4 numpy array m with m[i][j] = CATransform3D's
m(i+1)(j+1) (row vectors, translation in m[3][0:3]); this is the layout of the
spec's matrix[i][j] (matrix3d() lists its arguments in this order).

Two readings of the spec's pseudo-code are forced, both checked below:
  * multiply(a, b) "returns the 4x4 matrix product of a * b" in the spec's
    column-vector maths; with the storage layout above that product is b @ a.
    (Only this reading makes the skew steps rebuild the decomposition's
    lower-triangular shear.)
  * rotationMatrix is written in the maths [row][column] layout, i.e. it is the
    transpose of the storage layout every other step uses. Read literally (as
    storage) it rotates the wrong way: decompose -> recompose of a rotation by
    +30 degrees about z gives -30 degrees. See w3c/csswg-drafts#3230 (open);
    Servo/Gecko store the transpose (m12 = 2(xy + zw)), and WebKit and Blink
    fixed the same inconsistency in their own code.

Inputs are built exactly as the Swift test builds them: Float (float32)
entries, rotations evaluated in float64 and rounded once, concatenation in
float32 with the fixed order ((x*row1 + y*row2) + z*row3) + w*row4.

Usage: python3 docs/tools/transform_interpolation_reference.py
Prints, for each case, the 16 entries (row-major, 9 significant digits).
"""

import math

import numpy as np

F = np.float32

# ----------------------------------------------------------------------------
# Inputs, built like Transform3D (float32 entries).


def identity32():
    return np.eye(4, dtype=F)


def make_rotation32(angle, x, y, z):
    """CATransform3DMakeRotation as Transform3D computes it (float64, rounded once)."""
    x, y, z = float(F(x)), float(F(y)), float(F(z))
    length = math.sqrt(x * x + y * y + z * z)
    ux, uy, uz = x / length, y / length, z / length
    theta = float(F(angle))
    c, s = math.cos(theta), math.sin(theta)
    k = 1 - c
    m = np.array(
        [
            [c + k * ux * ux, k * ux * uy + s * uz, k * ux * uz - s * uy, 0],
            [k * ux * uy - s * uz, c + k * uy * uy, k * uy * uz + s * ux, 0],
            [k * ux * uz + s * uy, k * uy * uz - s * ux, c + k * uz * uz, 0],
            [0, 0, 0, 1],
        ],
        dtype=np.float64,
    )
    return m.astype(F)


def make_scale32(sx, sy, sz):
    return np.diag([F(sx), F(sy), F(sz), F(1)]).astype(F)


def make_translation32(tx, ty, tz):
    m = identity32()
    m[3, 0:3] = [F(tx), F(ty), F(tz)]
    return m


def make_perspective32(d):
    m = identity32()
    m[2, 3] = F(-1) / F(d)  # one float32 division, like `-1 / eyeDistance`
    return m


def concat32(a, b):
    """a.concatenating(b) = a . b in float32, each row in the order of Transform3D._rowTimes."""
    out = np.empty((4, 4), dtype=F)
    for i in range(4):
        r = a[i]
        out[i] = ((r[0] * b[0] + r[1] * b[1]) + r[2] * b[2]) + r[3] * b[3]
    return out


def radians32(degrees):
    """Degrees to Float radians: one float64 product, rounded once (as the Swift test does)."""
    return F(degrees * math.pi / 180)


# ----------------------------------------------------------------------------
# The spec's algorithm, in float64.


def decompose(matrix_in):
    """'Decomposing a 3D matrix'. Returns None when the spec returns false."""
    matrix = np.array(matrix_in, dtype=np.float64)
    if matrix[3][3] == 0:
        return None
    matrix = matrix / matrix[3][3]

    perspective_matrix = matrix.copy()
    for i in range(3):
        perspective_matrix[i][3] = 0
    perspective_matrix[3][3] = 1
    if np.linalg.det(perspective_matrix) == 0:
        return None

    if matrix[0][3] != 0 or matrix[1][3] != 0 or matrix[2][3] != 0:
        right_hand_side = np.array([matrix[0][3], matrix[1][3], matrix[2][3], matrix[3][3]])
        inverse_perspective_matrix = np.linalg.inv(perspective_matrix)
        transposed = inverse_perspective_matrix.T
        perspective = right_hand_side @ transposed  # multVecMatrix(point, matrix)
    else:
        perspective = np.array([0.0, 0.0, 0.0, 1.0])

    translate = np.array([matrix[3][i] for i in range(3)])

    row = [np.array(matrix[i][0:3]) for i in range(3)]
    scale = np.zeros(3)
    skew = np.zeros(3)

    def length(v):
        return math.sqrt(float(v @ v))

    def normalize(v):
        return v / length(v)

    def combine(a, b, ascl, bscl):
        return ascl * a + bscl * b

    scale[0] = length(row[0])
    row[0] = normalize(row[0])

    skew[0] = row[0] @ row[1]
    row[1] = combine(row[1], row[0], 1.0, -skew[0])

    scale[1] = length(row[1])
    row[1] = normalize(row[1])
    skew[0] /= scale[1]

    skew[1] = row[0] @ row[2]
    row[2] = combine(row[2], row[0], 1.0, -skew[1])
    skew[2] = row[1] @ row[2]
    row[2] = combine(row[2], row[1], 1.0, -skew[2])

    scale[2] = length(row[2])
    row[2] = normalize(row[2])
    skew[1] /= scale[2]
    skew[2] /= scale[2]

    pdum3 = np.cross(row[1], row[2])
    if row[0] @ pdum3 < 0:
        for i in range(3):
            scale[i] *= -1
            row[i] = -row[i]

    q = np.zeros(4)
    q[0] = 0.5 * math.sqrt(max(1 + row[0][0] - row[1][1] - row[2][2], 0))
    q[1] = 0.5 * math.sqrt(max(1 - row[0][0] + row[1][1] - row[2][2], 0))
    q[2] = 0.5 * math.sqrt(max(1 - row[0][0] - row[1][1] + row[2][2], 0))
    q[3] = 0.5 * math.sqrt(max(1 + row[0][0] + row[1][1] + row[2][2], 0))
    if row[2][1] > row[1][2]:
        q[0] = -q[0]
    if row[0][2] > row[2][0]:
        q[1] = -q[1]
    if row[1][0] > row[0][1]:
        q[2] = -q[2]

    return dict(perspective=perspective, translate=translate, scale=scale, skew=skew, quaternion=q)


def slerp(qa, qb, t):
    """The spec's Slerp, verbatim (no sign flip toward the shorter arc)."""
    product = float(qa @ qb)
    product = min(product, 1.0)
    product = max(product, -1.0)
    if abs(product) == 1.0:
        return qa.copy()
    theta = math.acos(product)
    w = math.sin(t * theta) / math.sqrt(1 - product * product)
    return qa * (math.cos(t * theta) - product * w) + qb * w


def interpolate(da, db, t):
    def lerp(a, b):
        return (1 - t) * a + t * b

    return dict(
        perspective=lerp(da["perspective"], db["perspective"]),
        translate=lerp(da["translate"], db["translate"]),
        scale=lerp(da["scale"], db["scale"]),
        skew=lerp(da["skew"], db["skew"]),
        quaternion=slerp(da["quaternion"], db["quaternion"], t),
    )


def multiply(a, b):
    """The spec's multiply(a, b) = a * b in column-vector maths = b @ a in this storage layout."""
    return b @ a


def spec_rotation_matrix(q):
    """rotationMatrix exactly as the spec writes it (maths [row][column] layout)."""
    x, y, z, w = q
    r = np.eye(4)
    r[0][0] = 1 - 2 * (y * y + z * z)
    r[0][1] = 2 * (x * y - z * w)
    r[0][2] = 2 * (x * z + y * w)
    r[1][0] = 2 * (x * y + z * w)
    r[1][1] = 1 - 2 * (x * x + z * z)
    r[1][2] = 2 * (y * z - x * w)
    r[2][0] = 2 * (x * z - y * w)
    r[2][1] = 2 * (y * z + x * w)
    r[2][2] = 1 - 2 * (x * x + y * y)
    return r


def recompose(d, literal_rotation=False):
    """'Recomposing to a 3D matrix'."""
    matrix = np.eye(4)
    for i in range(4):
        matrix[i][3] = d["perspective"][i]
    for i in range(4):
        for j in range(3):
            matrix[3][i] += d["translate"][j] * matrix[j][i]

    rotation = spec_rotation_matrix(d["quaternion"])
    if not literal_rotation:
        rotation = rotation.T  # to the storage layout (see the module docstring)
    matrix = multiply(matrix, rotation)

    skew = d["skew"]
    temp = np.eye(4)
    if skew[2]:
        temp[2][1] = skew[2]
        matrix = multiply(matrix, temp)
    if skew[1]:
        temp[2][1] = 0
        temp[2][0] = skew[1]
        matrix = multiply(matrix, temp)
    if skew[0]:
        temp[2][0] = 0
        temp[1][0] = skew[0]
        matrix = multiply(matrix, temp)

    for i in range(3):
        for j in range(4):
            matrix[i][j] *= d["scale"][i]
    return matrix


def interpolate_matrices(a, b, t):
    da, db = decompose(a), decompose(b)
    assert da is not None and db is not None
    return recompose(interpolate(da, db, t))


# ----------------------------------------------------------------------------


def self_checks():
    # The literal rotationMatrix inverts rotations; the transposed one round-trips.
    r30 = make_rotation32(radians32(30), 0, 0, 1)
    d = decompose(r30)
    literal = recompose(d, literal_rotation=True)
    fixed = recompose(d)
    assert np.allclose(fixed, r30, atol=1e-7), fixed
    assert np.allclose(literal, make_rotation32(radians32(-30), 0, 0, 1), atol=1e-7), literal
    # The quaternion of a rotation by theta in (0, pi) about unit axis u is (u sin(theta/2), cos(theta/2)).
    axis = np.array([1.0, 2.0, 2.0]) / 3
    d = decompose(make_rotation32(radians32(50), 1, 2, 2))
    expected = np.append(axis * math.sin(math.radians(25)), math.cos(math.radians(25)))
    assert np.allclose(d["quaternion"], expected, atol=1e-7), d["quaternion"]
    # Skew and perspective round-trip, up to the normalisation by m44 (recompose gives m44 = 1).
    m = concat32(
        concat32(make_scale32(2, 3, 0.5), make_rotation32(radians32(40), 1, -2, 0.5)),
        concat32(make_translation32(5, -7, 11), make_perspective32(400)),
    )
    m[1][0] += F(0.3)  # a shear
    m[0][3] = F(0.002)
    assert np.allclose(recompose(decompose(m)), m / float(m[3][3]), atol=1e-6)


def fmt(m):
    return ", ".join("%.9g" % v for v in np.asarray(m, dtype=np.float64).reshape(16))


def main():
    self_checks()
    p = make_perspective32(900)
    h = 844.0
    t1 = concat32(concat32(make_rotation32(radians32(15), 1, 0, 0), make_scale32(0.95, 0.95, 1)), p)
    t2 = concat32(concat32(make_scale32(0.8, 0.8, 1), make_translation32(0, -0.08 * h, 0)), p)
    ident = identity32()
    print("# t1 =", fmt(t1))
    print("# t2 =", fmt(t2))
    for name, a, b in (("identity -> t1", ident, t1), ("t1 -> t2", t1, t2), ("t2 -> identity", t2, ident)):
        for t in (0.25, 0.5, 0.75):
            print("%s @ %g: %s" % (name, t, fmt(interpolate_matrices(a, b, t))))
    # A matrix with all three shears, a rotation and an off-axis perspective, so that
    # the order of the skew steps and the perspective solve are pinned too.
    shear = identity32()
    shear[1][0], shear[2][0], shear[2][1] = F(0.3), F(-0.2), F(0.4)
    p2 = make_perspective32(400)
    p2[0][3] = F(0.002)
    g = concat32(
        concat32(concat32(make_scale32(2, 3, 0.5), shear), make_rotation32(radians32(40), 1, -2, 0.5)),
        concat32(make_translation32(5, -7, 11), p2),
    )
    print("# g =", fmt(g))
    for t in (0.25, 0.5):
        print("identity -> g @ %g: %s" % (t, fmt(interpolate_matrices(ident, g, t))))


if __name__ == "__main__":
    main()
