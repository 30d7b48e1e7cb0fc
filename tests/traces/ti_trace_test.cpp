// Tests of the SimGrid TI reader: both layouts, every action, the datatype table, broken traces.
#include <doctest/doctest.h>

#include "traces/ti/ti_trace.hpp"
#include "traces/trace_error.hpp"
