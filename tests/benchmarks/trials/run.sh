#!/usr/bin/env bash
# The performance machinery on trial (docs/architecture.md, "The performance machinery"): each
# piece against the same code without it (a patch here), A B A B, on PostgreSQL + Redis.
#   bash tests/benchmarks/trials/run.sh [piece ...]    (default: every patch here)
set -uo pipefail
cd "$(dirname "$0")/../../.."
PG=(--env DATABASE_URL=postgres://postgres@127.0.0.1:5432/test --env REDIS_URL=redis://127.0.0.1:6379/0)
AB=(.venv/bin/python tests/benchmarks/ab.py)
T=tests/benchmarks
A=$(git rev-parse --short HEAD)
pieces=("$@")
[ ${#pieces[@]} -gt 0 ] || pieces=(no-asgi-handler no-pg-backend orm-lock no-write-batch no-gc-pause no-stream-asgi)
for piece in "${pieces[@]}"; do
  case "$piece" in
    no-gc-pause) bench=("$T/bench_registration_http.py" "$T/bench_draw_service.py") ;;
    no-stream-asgi) bench=("$T/bench_sse_fanout.py") ;;
    no-write-batch) bench=("$T/bench_registration_http.py" "$T/bench_floor.py") ;;
    *) bench=("$T/bench_registration_http.py") ;;
  esac
  echo "### $piece"
  "${AB[@]}" "$A" "$A+$T/trials/$piece.patch" "${bench[@]}" --rounds 2 "${PG[@]}" \
    --env BENCH_FLOOR_PLAYERS=1000 --env BENCH_SSE_SCREENS=500 | grep -v '^round'
done
