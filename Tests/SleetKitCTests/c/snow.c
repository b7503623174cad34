/*
 * snow.c: render a SleetKit effect from C and write each frame's instances.
 *
 *   cc -std=c11 snow.c $(pkg-config --cflags --libs sleetkit) -o snow
 *   ./snow OUT_DIR EFFECT.json SEED WIDTH TIME...
 *
 * For each TIME (seconds) it writes OUT_DIR/c-full-N.bin (the frame's
 * 64-byte instances, seeking) and OUT_DIR/c-compact-N.bin (32-byte compact
 * instances, stepping with advance through the times in order), N = 0, 1, …,
 * and prints one line per frame. SleetKitCTests compares the files with the
 * Swift API's frames, bit for bit. docs/c-api.md walks through it.
 */
#include <sleetkit.h>

#include <stdio.h>
#include <stdlib.h>

/* Prints the error and exits: every SleetKit call reports what went wrong. */
static void check(sleet_status status, const sleet_error *error, const char *what) {
  if (status != SLEET_OK) {
    fprintf(stderr, "snow: %s failed (status %d): %s\n", what, (int)status, error->message);
    exit(1);
  }
}

/* Writes `count` elements of `size` bytes to OUT_DIR/PREFIX-N.bin. */
static void write_frame(const char *dir, const char *prefix, int n, const void *data, size_t size, size_t count) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-%d.bin", dir, prefix, n);
  FILE *file = fopen(path, "wb");
  if (file == NULL || (count > 0 && fwrite(data, size, count, file) != count) || fclose(file) != 0) {
    fprintf(stderr, "snow: cannot write %s\n", path);
    exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: snow OUT_DIR EFFECT.json SEED WIDTH TIME...\n");
    return 2;
  }
  const char *out_dir = argv[1];
  sleet_error error; /* caller-owned: no message is ever allocated */
  printf("SleetKit %s\n", sleet_version());

  /* The effect: an effect file, with its "width" parameter set. */
  sleet_effect *effect = NULL;
  check(sleet_effect_create_from_file(argv[2], &effect, &error), &error, "sleet_effect_create_from_file");
  check(sleet_effect_set_parameter(effect, "width", atof(argv[4]), &error), &error, "sleet_effect_set_parameter");

  /* Two systems with the same seed: 64-byte instances, and 32-byte ones. */
  sleet_system_options options;
  sleet_system_options_init(&options);
  options.seed = (uint32_t)strtoul(argv[3], NULL, 10);
  options.has_seed = 1;
  sleet_system *full = NULL;
  check(sleet_system_create(effect, &options, &full, &error), &error, "sleet_system_create");
  options.layout = SLEET_LAYOUT_COMPACT;
  sleet_system *compact = NULL;
  check(sleet_system_create(effect, &options, &compact, &error), &error, "sleet_system_create (compact)");
  sleet_effect_destroy(effect); /* the systems keep their own copy */

  for (int i = 5; i < argc; i++) {
    double time = atof(argv[i]);
    int n = i - 5;

    /* Count first: seek, render into the system's frame, get the count. */
    size_t count = 0;
    check(sleet_system_seek(full, time, &error), &error, "sleet_system_seek");
    check(sleet_system_render(full, &count, &error), &error, "sleet_system_render");
    /* Then fill a buffer of that many instances. */
    sleet_particle_instance *instances = malloc(count * sizeof *instances + 1);
    size_t written = 0;
    check(sleet_system_copy_instances(full, instances, count, &written, &error), &error,
          "sleet_system_copy_instances");
    write_frame(out_dir, "c-full", n, instances, sizeof *instances, written);

    /* The sprite table names what instance.sprite indexes. */
    char sprite[256] = "";
    size_t sprites = 0;
    check(sleet_system_sprite_count(full, &sprites, &error), &error, "sleet_system_sprite_count");
    if (sprites > 0) {
      check(sleet_system_sprite_name(full, 0, sprite, sizeof sprite, NULL, &error), &error,
            "sleet_system_sprite_name");
    }
    printf("t=%g: %zu particles", time, written);
    if (written > 0) {
      const sleet_particle_instance *p = &instances[0];
      printf(", the oldest at (%.1f, %.1f), scale %.3f, sprite \"%s\"", p->x, p->y, p->scale,
             p->sprite == SLEET_NO_SPRITE ? "" : sprite);
    }
    printf("\n");
    free(instances);

    /* The compact system steps (advance) instead of seeking. */
    check(sleet_system_advance(compact, time, &error), &error, "sleet_system_advance");
    check(sleet_system_render(compact, &count, &error), &error, "sleet_system_render (compact)");
    sleet_compact_particle_instance *small = malloc(count * sizeof *small + 1);
    check(sleet_system_copy_compact_instances(compact, small, count, &written, &error), &error,
          "sleet_system_copy_compact_instances");
    write_frame(out_dir, "c-compact", n, small, sizeof *small, written);
    free(small);
  }

  sleet_system_destroy(compact);
  sleet_system_destroy(full);
  return 0;
}
