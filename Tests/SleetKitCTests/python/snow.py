#!/usr/bin/env python3
"""SleetKit's C API from Python (ctypes): render snow, evaluate a transition.

    python3 snow.py LIBRARY OUT_DIR EFFECT.json SEED WIDTH TIME...

Loads LIBRARY (libSleetKitC.so) and checks that it exports every function
sleetkit.h declares and that the structs below have the header's sizes. Reads
EFFECT.json as text (sleet_effect_create_from_json), sets its "width"
parameter, and for each TIME writes OUT_DIR/py-full-N.bin (64-byte
instances, seeking) and OUT_DIR/py-compact-N.bin (32-byte instances,
stepping). Writes OUT_DIR/py-layers-STYLE.bin: the layers of a few
transitions at fixed times (see TRANSITIONS). Checks a few error paths. Prints
"ok" at the end; exits 1 on any failure. SleetKitCTests compares the files
with the Swift API's output, bit for bit.
"""
import ctypes
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, "..", "..", "..", "Sources", "SleetKitCHeader", "include", "sleetkit.h")

SLEET_OK = 0
SLEET_ERROR_NULL_ARGUMENT = 1
SLEET_ERROR_INVALID_ARGUMENT = 2
SLEET_ERROR_INVALID_EFFECT = 3
SLEET_ERROR_CAPACITY = 6
SLEET_LAYOUT_COMPACT = 1


class Error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int32), ("message", ctypes.c_char * 1024)]


class Instance(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_float), ("y", ctypes.c_float), ("z", ctypes.c_float), ("scale", ctypes.c_float),
        ("color", ctypes.c_float * 4), ("contents_rect", ctypes.c_float * 4),
        ("rotation", ctypes.c_float), ("normalized_age", ctypes.c_float),
        ("sprite", ctypes.c_uint32), ("cell", ctypes.c_uint32),
    ]


class CompactInstance(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_float), ("y", ctypes.c_float), ("z", ctypes.c_float), ("scale", ctypes.c_float),
        ("rotation", ctypes.c_float), ("normalized_age", ctypes.c_float),
        ("color", ctypes.c_uint8 * 4), ("sprite", ctypes.c_uint16), ("cell", ctypes.c_uint16),
    ]


class SystemOptions(ctypes.Structure):
    _fields_ = [
        ("seed", ctypes.c_uint32), ("has_seed", ctypes.c_int32), ("threads", ctypes.c_int32),
        ("layout", ctypes.c_int32), ("budget", ctypes.c_int64),
    ]


class Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("width", ctypes.c_double),
                ("height", ctypes.c_double)]


class TransitionOptions(ctypes.Structure):
    _fields_ = [
        ("image_rect", ctypes.POINTER(Rect)), ("target_rect", ctypes.POINTER(Rect)), ("button", ctypes.POINTER(Rect)),
        ("has_divisor", ctypes.c_int32), ("divisor", ctypes.c_int32),
        ("has_seed", ctypes.c_int32), ("seed", ctypes.c_uint64),
    ]


class Layer(ctypes.Structure):
    _fields_ = [
        ("transform", ctypes.c_float * 16), ("corners", ctypes.c_float * 8), ("texture_corners", ctypes.c_float * 8),
        ("color", ctypes.c_float * 4), ("mask", Rect), ("opacity", ctypes.c_float), ("depth", ctypes.c_float),
        ("content", ctypes.c_int32), ("has_mask", ctypes.c_int32),
    ]


# Style, direction, width, height, options, time: the same list as
# CAPIBitIdentityTests.transitions in the Swift tests.
TRANSITIONS = [
    ("slide", "push", 390, 844, {}, 0.2),
    ("circleReveal", "pop", 390, 844, {"button": (326, 56, 44, 44)}, 0.3),
    ("zoom", "push", 390, 844, {"image_rect": (24, 160, 160, 160), "target_rect": (0, 88, 390, 390)}, 0.25),
    ("tilt3D", "present", 390, 844, {}, 0.45),
    ("checkerboard", "pop", 390, 844, {"divisor": 8}, 1.2),
    ("glassBreak", None, 200, 300, {"seed": 3}, 0.7),
]

failures = []


def check(condition, what):
    print(("pass " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def declare(lib):
    """Argument and result types of every function used (ctypes would
    otherwise pass doubles and size_t as int)."""
    P, size, dbl, i32 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_double, ctypes.c_int32
    err = ctypes.POINTER(Error)
    signatures = {
        "sleet_version": ([], ctypes.c_char_p),
        "sleet_effect_create_from_json": ([ctypes.c_char_p, size, ctypes.POINTER(P), err], i32),
        "sleet_effect_destroy": ([P], None),
        "sleet_effect_set_parameter": ([P, ctypes.c_char_p, dbl, err], i32),
        "sleet_system_options_init": ([ctypes.POINTER(SystemOptions)], None),
        "sleet_system_create": ([P, ctypes.POINTER(SystemOptions), ctypes.POINTER(P), err], i32),
        "sleet_system_destroy": ([P], None),
        "sleet_system_seek": ([P, dbl, err], i32),
        "sleet_system_advance": ([P, dbl, err], i32),
        "sleet_system_render": ([P, ctypes.POINTER(size), err], i32),
        "sleet_system_copy_instances": ([P, ctypes.POINTER(Instance), size, ctypes.POINTER(size), err], i32),
        "sleet_system_copy_compact_instances": (
            [P, ctypes.POINTER(CompactInstance), size, ctypes.POINTER(size), err], i32),
        "sleet_transition_create": (
            [ctypes.c_char_p, ctypes.c_char_p, dbl, dbl, ctypes.POINTER(TransitionOptions), ctypes.POINTER(P), err],
            i32),
        "sleet_transition_destroy": ([P], None),
        "sleet_transition_evaluate": ([P, dbl, ctypes.POINTER(size), err], i32),
        "sleet_transition_copy_layers": ([P, ctypes.POINTER(Layer), size, ctypes.POINTER(size), err], i32),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes = arguments
        function.restype = result


def header_checks(lib):
    with open(HEADER, encoding="utf-8") as f:
        header = f.read()
    names = sorted(set(re.findall(r"^[a-z_ ]+\*?\s*\**(sleet_[a-z_]+)\(", header, re.MULTILINE)))
    check(len(names) >= 29, f"the header declares {len(names)} functions")
    missing = [n for n in names if not hasattr(lib, n)]
    check(not missing, f"the library exports every declared function (missing: {missing})")
    for struct, size in [(Instance, 64), (CompactInstance, 32), (Layer, 192), (SystemOptions, 24), (Error, 1028)]:
        check(ctypes.sizeof(struct) == size, f"sizeof({struct.__name__}) == {size}")
    check(Instance.normalized_age.offset == 52 and Instance.sprite.offset == 56, "instance offsets")
    check(CompactInstance.color.offset == 24 and CompactInstance.cell.offset == 30, "compact offsets")
    check(Layer.mask.offset == 144 and Layer.content.offset == 184, "layer offsets")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main():
    if len(sys.argv) < 7:
        sys.stderr.write(__doc__)
        return 2
    library, out_dir, effect_path, seed, width = sys.argv[1:6]
    times = [float(t) for t in sys.argv[6:]]
    lib = ctypes.CDLL(library)
    declare(lib)
    header_checks(lib)
    print("SleetKit", lib.sleet_version().decode())
    error = Error()

    with open(effect_path, "rb") as f:
        json = f.read()
    effect = ctypes.c_void_p()
    status = lib.sleet_effect_create_from_json(json, len(json), ctypes.byref(effect), ctypes.byref(error))
    check(status == SLEET_OK, "sleet_effect_create_from_json: " + error.message.decode())
    status = lib.sleet_effect_set_parameter(effect, b"width", float(width), ctypes.byref(error))
    check(status == SLEET_OK, "sleet_effect_set_parameter: " + error.message.decode())

    options = SystemOptions()
    lib.sleet_system_options_init(ctypes.byref(options))
    options.seed, options.has_seed = int(seed), 1
    full = ctypes.c_void_p()
    check(lib.sleet_system_create(effect, ctypes.byref(options), ctypes.byref(full), ctypes.byref(error)) == SLEET_OK,
          "sleet_system_create")
    options.layout = SLEET_LAYOUT_COMPACT
    compact = ctypes.c_void_p()
    check(lib.sleet_system_create(effect, ctypes.byref(options), ctypes.byref(compact), ctypes.byref(error))
          == SLEET_OK, "sleet_system_create (compact)")
    lib.sleet_effect_destroy(effect)

    count, written = ctypes.c_size_t(), ctypes.c_size_t()
    for n, time in enumerate(times):
        check(lib.sleet_system_seek(full, time, ctypes.byref(error)) == SLEET_OK, f"seek {time}")
        check(lib.sleet_system_render(full, ctypes.byref(count), ctypes.byref(error)) == SLEET_OK, f"render {time}")
        instances = (Instance * count.value)()
        status = lib.sleet_system_copy_instances(full, instances, count.value, ctypes.byref(written),
                                                 ctypes.byref(error))
        check(status == SLEET_OK and written.value == count.value, f"copy {count.value} instances at {time}")
        write(os.path.join(out_dir, f"py-full-{n}.bin"), bytes(instances))

        check(lib.sleet_system_advance(compact, time, ctypes.byref(error)) == SLEET_OK, f"advance {time}")
        check(lib.sleet_system_render(compact, ctypes.byref(count), ctypes.byref(error)) == SLEET_OK,
              f"render compact {time}")
        small = (CompactInstance * count.value)()
        status = lib.sleet_system_copy_compact_instances(compact, small, count.value, ctypes.byref(written),
                                                         ctypes.byref(error))
        check(status == SLEET_OK, f"copy {count.value} compact instances at {time}")
        write(os.path.join(out_dir, f"py-compact-{n}.bin"), bytes(small))

    # Error paths: every one a status and a message, never a crash.
    check(lib.sleet_system_seek(full, math.nan, ctypes.byref(error)) == SLEET_ERROR_INVALID_ARGUMENT
          and b"must be finite" in error.message, "NaN time: " + error.message.decode())
    check(lib.sleet_system_seek(None, 1.0, ctypes.byref(error)) == SLEET_ERROR_NULL_ARGUMENT,
          "NULL system: " + error.message.decode())
    check(lib.sleet_system_render(full, ctypes.byref(count), None) == SLEET_OK and count.value > 1,
          "render with a NULL error record")
    one = (Instance * 1)()
    status = lib.sleet_system_copy_instances(full, one, 1, ctypes.byref(written), ctypes.byref(error))
    check(status == SLEET_ERROR_CAPACITY and written.value == 1, "capacity 1: " + error.message.decode())
    bad = b'{"format": 1, "emitterCells": [{"name": "a", "lifetime": "long"}]}'
    status = lib.sleet_effect_create_from_json(bad, len(bad), ctypes.byref(effect), ctypes.byref(error))
    check(status == SLEET_ERROR_INVALID_EFFECT and b"emitterCells[0].lifetime" in error.message,
          "bad JSON: " + error.message.decode())
    lib.sleet_system_destroy(compact)
    lib.sleet_system_destroy(full)

    for style, direction, w, h, given, time in TRANSITIONS:
        rects = {k: Rect(*v) for k, v in given.items() if k in ("image_rect", "target_rect", "button")}
        o = TransitionOptions()
        for k, r in rects.items():
            setattr(o, k, ctypes.pointer(r))
        if "divisor" in given:
            o.has_divisor, o.divisor = 1, given["divisor"]
        if "seed" in given:
            o.has_seed, o.seed = 1, given["seed"]
        transition = ctypes.c_void_p()
        status = lib.sleet_transition_create(style.encode(), direction.encode() if direction else None, w, h,
                                             ctypes.byref(o), ctypes.byref(transition), ctypes.byref(error))
        check(status == SLEET_OK, f"{style}: " + error.message.decode())
        lib.sleet_transition_evaluate(transition, time, ctypes.byref(count), ctypes.byref(error))
        layers = (Layer * count.value)()
        status = lib.sleet_transition_copy_layers(transition, layers, count.value, ctypes.byref(written),
                                                  ctypes.byref(error))
        check(status == SLEET_OK and written.value == count.value, f"{style}: {count.value} layers at {time}")
        write(os.path.join(out_dir, f"py-layers-{style}.bin"), bytes(layers))
        lib.sleet_transition_destroy(transition)

    if failures:
        print(f"{len(failures)} failures")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
