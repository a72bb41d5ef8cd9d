/* The version the library was built as; compare with the header's. */
#include "cloth_internal.h"

uint32_t cloth_version(void)
{
    return (uint32_t)CLOTHSIM_VERSION_NUMBER;
}
