# tests/interop: the rules live in interop/rules.mk (guarded against a second include).
include interop/rules.mk
