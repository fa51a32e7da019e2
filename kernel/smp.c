#include "kernel/smp.h"
#include "kernel/percpu.h"
void smp_stop_other_cpus(void)
{
}
