/*
 * Status names, generated from one list so the table cannot fall out of step
 * with the enum.
 */
#include "cloth_internal.h"

#define CLOTH_STATUS_LIST(X)                                                  \
    X(CLOTH_OK, "ok")                                                         \
    X(CLOTH_ERR_INVALID_ARGUMENT, "invalid argument")                         \
    X(CLOTH_ERR_OUT_OF_MEMORY, "out of memory")                               \
    X(CLOTH_ERR_OUT_OF_RANGE, "index or id out of range")                     \
    X(CLOTH_ERR_UNSTABLE, "step became unstable; previous state restored")    \
    X(CLOTH_ERR_UNSUPPORTED, "not supported")                                 \
    X(CLOTH_ERR_BUSY, "cloth is busy: called from inside its own step")       \
    X(CLOTH_ERR_TASK_CONTRACT, "task hooks skipped or repeated work; previous state restored")

#define CLOTH_STATUS_NAME(code, text) [code] = text,
static const char *const status_names[] = {CLOTH_STATUS_LIST(CLOTH_STATUS_NAME)};
#undef CLOTH_STATUS_NAME

#define CLOTH_STATUS_COUNT_ONE(code, text) +1
_Static_assert(sizeof status_names / sizeof status_names[0] == 0 CLOTH_STATUS_LIST(CLOTH_STATUS_COUNT_ONE),
               "every status code needs a name");
_Static_assert(CLOTH_ERR_TASK_CONTRACT + 1 == sizeof status_names / sizeof status_names[0],
               "status codes must be dense");
#undef CLOTH_STATUS_COUNT_ONE

const char *cloth_status_string(cloth_status status)
{
    size_t i = (size_t)status;
    if ((int)status < 0 || i >= sizeof status_names / sizeof status_names[0]) {
        return "unknown status";
    }
    return status_names[i];
}
