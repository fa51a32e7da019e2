# The trace.dat writer's modules (tools/trace/mktracedat).

# make trace's default workload, also tests/tools/check-trace's: the
# throughput benchmark's worker pairs wake each other across the two CPUs.
DEFAULT_CMDLINE = ('clock=icount bench=off shell=off autorun="trace on;bench throughput ops=1000 '
                   'rounds=50;trace off;trace dump;poweroff"')
