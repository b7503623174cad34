/*
 * errors.c: the C API's error paths, from C. Built and run by
 * SleetKitCTests; prints one line per check and "ok" at the end, and exits 1
 * at the first unexpected status or message.
 *
 *   ./errors EFFECT.json
 */
#include <sleetkit.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

/* Expects `status` and a message containing `needle`. */
static void expect(const char *what, sleet_status status, sleet_status expected, const sleet_error *error,
                   const char *needle) {
  int ok = status == expected && error->status == status && strstr(error->message, needle) != NULL;
  printf("%s %s: status %d, \"%s\"\n", ok ? "pass" : "FAIL", what, (int)status, error->message);
  if (!ok) failures++;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: errors EFFECT.json\n");
    return 2;
  }
  sleet_error error;
  sleet_effect *effect = NULL;

  /* Bad JSON: a syntax error, then a value the format refuses. */
  const char *broken = "{\"format\": 1,";
  expect("syntax error", sleet_effect_create_from_json(broken, strlen(broken), &effect, &error),
         SLEET_ERROR_INVALID_EFFECT, &error, "invalid JSON at line 1");
  const char *negative = "{\"format\": 1, \"emitterCells\": [{\"name\": \"a\", \"birthRate\": -1}]}";
  expect("negative birth rate", sleet_effect_create_from_json(negative, strlen(negative), &effect, &error),
         SLEET_ERROR_INVALID_EFFECT, &error, "emitterCells[0].birthRate");
  expect("no effect made", effect == NULL ? SLEET_OK : -1, SLEET_OK, &(sleet_error){0, ""}, "");
  expect("missing file", sleet_effect_create_from_file("/nonexistent/snow.json", &effect, &error),
         SLEET_ERROR_FILE, &error, "No such file");
  expect("NULL json", sleet_effect_create_from_json(NULL, 0, &effect, &error), SLEET_ERROR_NULL_ARGUMENT, &error,
         "json is NULL");

  sleet_status status = sleet_effect_create_from_file(argv[1], &effect, &error);
  expect("effect file", status, SLEET_OK, &error, "");
  if (status != SLEET_OK) return 1;
  expect("unknown parameter", sleet_effect_set_parameter(effect, "hight", 3, &error), SLEET_ERROR_INVALID_ARGUMENT,
         &error, "parameters.hight: no such parameter");
  expect("NaN parameter", sleet_effect_set_parameter(effect, "width", NAN, &error), SLEET_ERROR_INVALID_ARGUMENT,
         &error, "must be finite");

  sleet_system *system = NULL;
  sleet_system_options options;
  sleet_system_options_init(&options);
  options.threads = 0;
  expect("zero threads", sleet_system_create(effect, &options, &system, &error), SLEET_ERROR_INVALID_ARGUMENT, &error,
         "options.threads");
  options.threads = 1;
  options.budget = 5;
  expect("over budget", sleet_system_create(effect, &options, &system, &error), SLEET_ERROR_INVALID_EFFECT, &error,
         "over the budget of 5");
  status = sleet_system_create(effect, NULL, &system, &error);
  expect("system", status, SLEET_OK, &error, "");
  if (status != SLEET_OK) return 1;

  /* NULL handles and out-pointers, a handle of the wrong kind. */
  size_t count = 0;
  expect("NULL system", sleet_system_seek(NULL, 1, &error), SLEET_ERROR_NULL_ARGUMENT, &error, "system is NULL");
  expect("NULL out_count", sleet_system_render(system, NULL, &error), SLEET_ERROR_NULL_ARGUMENT, &error,
         "out_count is NULL");
  expect("wrong kind", sleet_system_seek((sleet_system *)effect, 1, &error), SLEET_ERROR_INVALID_ARGUMENT, &error,
         "is a sleet_effect, not a sleet_system");

  /* Times: not finite, past the limit. */
  expect("NaN time", sleet_system_seek(system, NAN, &error), SLEET_ERROR_INVALID_ARGUMENT, &error,
         "time must be finite, got nan");
  expect("infinite time", sleet_system_advance(system, INFINITY, &error), SLEET_ERROR_INVALID_ARGUMENT, &error,
         "time must be finite, got inf");
  expect("time past the limit", sleet_system_seek(system, 1e300, &error), SLEET_ERROR_TIME_OUT_OF_RANGE, &error,
         "past this effect's limit");

  /* Capacity too small: the first instances are written, the rest reported. */
  expect("seek", sleet_system_seek(system, 20, &error), SLEET_OK, &error, "");
  expect("render", sleet_system_render(system, &count, &error), SLEET_OK, &error, "");
  sleet_particle_instance two[2];
  size_t written = 99;
  expect("capacity 2", sleet_system_copy_instances(system, two, 2, &written, &error), SLEET_ERROR_CAPACITY, &error,
         "capacity 2 is less than the");
  expect("wrote 2", written == 2 && count > 2 ? SLEET_OK : -1, SLEET_OK, &(sleet_error){0, ""}, "");
  expect("NULL buffer", sleet_system_copy_instances(system, NULL, 2, &written, &error), SLEET_ERROR_NULL_ARGUMENT,
         &error, "buffer");
  sleet_compact_particle_instance compact[1];
  expect("wrong layout", sleet_system_copy_compact_instances(system, compact, 1, &written, &error),
         SLEET_ERROR_WRONG_LAYOUT, &error, "SLEET_LAYOUT_FULL");
  char name[4];
  size_t length = 0;
  expect("name too long", sleet_system_sprite_name(system, 0, name, sizeof name, &length, &error),
         SLEET_ERROR_CAPACITY, &error, "too small");
  expect("sprite index", sleet_system_sprite_name(system, 7, name, sizeof name, &length, &error),
         SLEET_ERROR_INVALID_ARGUMENT, &error, "past the end of the 1 sprites");

  /* Transitions and plans: bad names, sizes and options. */
  sleet_transition *transition = NULL;
  expect("unknown style", sleet_transition_create("slid", NULL, 390, 844, NULL, &transition, &error),
         SLEET_ERROR_INVALID_ARGUMENT, &error, "unknown style \"slid\"");
  expect("bad direction", sleet_transition_create("slide", "present", 390, 844, NULL, &transition, &error),
         SLEET_ERROR_INVALID_TRANSITION, &error, "slide does not take the direction present");
  expect("NaN width", sleet_transition_create("fade", NULL, NAN, 844, NULL, &transition, &error),
         SLEET_ERROR_INVALID_TRANSITION, &error, "width must be a finite number");
  expect("zoom without rects", sleet_transition_create("zoom", NULL, 390, 844, NULL, &transition, &error),
         SLEET_ERROR_INVALID_TRANSITION, &error, "zoom needs imageRect");
  sleet_checkerboard *plan = NULL;
  sleet_checkerboard_options plan_options;
  sleet_checkerboard_options_init(&plan_options);
  plan_options.divisor = 0;
  expect("divisor 0", sleet_checkerboard_create(390, 844, &plan_options, &plan, &error), SLEET_ERROR_INVALID_ARGUMENT,
         &error, "divisor 0 must be at least 1");
  status = sleet_transition_create("checkerboard", "pop", 390, 844, NULL, &transition, &error);
  expect("checkerboard", status, SLEET_OK, &error, "");
  if (status != SLEET_OK) return 1;
  expect("NaN transition time", sleet_transition_evaluate(transition, NAN, &count, &error),
         SLEET_ERROR_INVALID_ARGUMENT, &error, "time must be finite");
  expect("before any evaluation", sleet_transition_copy_layers(transition, NULL, 0, &written, &error), SLEET_OK,
         &error, "");

  sleet_transition_destroy(transition);
  sleet_system_destroy(system);
  sleet_effect_destroy(effect);
  sleet_effect_destroy(NULL); /* ignored */
  if (failures > 0) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
