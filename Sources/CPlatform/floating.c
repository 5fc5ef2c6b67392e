// See include/CPlatform.h.

#include <fenv.h>
#include "CPlatform.h"

int cplatform_default_floating_point(void) {
    return fesetenv(FE_DFL_ENV);
}
