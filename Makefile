# Casino table games: the README's two commands.
#   make run   install everything, migrate, create the demo table and serve http://127.0.0.1:8000
#   make test  install everything and run the whole suite
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PG_URL ?= postgres://postgres@127.0.0.1:5432/postgres
REDIS ?= redis://127.0.0.1:6379/0

.PHONY: install run test test-fast test-realstack bench lint bytecode

$(VENV)/.installed: requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 is needed (python3.11 not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet uv==0.13.9
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -r requirements.txt
	touch $@

# Bytecode of the project's own modules, written once. Where PYTHONDONTWRITEBYTECODE is set
# (as on the machines CI runs on) no import writes any, and every process the suite starts
# (each xdist worker, each Daphne and manage.py of the live stacks) compiled every module from
# source: django.setup() took 3.5 s of CPU instead of 0.85 (uv, unlike pip, compiles the
# packages only when told: --compile-bytecode above). A stale file is compiled again from its
# source's time, as Python checks it.
bytecode: install
	@$(PY) -m compileall -q -j 0 table frenzy_site tests bench manage.py >/dev/null

install: $(VENV)/.installed

run: bytecode
	$(PY) manage.py demo --host 127.0.0.1 --port 8000

# The whole suite: first embedded (SQLite, in-memory channel layer), then the tests that
# need the real stack on PostgreSQL and Redis. With CI set, a missing PostgreSQL or
# Redis fails the run; without it, that second pass is skipped with a notice, and the
# real-stack tests run in the embedded pass instead (on SQLite and the in-memory layer).
# With the real stack there, they run once, on it: twice cost CI about two minutes of a
# 15-minute budget for the same checks on the stack production does not use.
# Two workers (pytest-xdist, one per core; each its own test database and, on Redis, its own
# channel prefix): the browser tests in a pass of their own, since a
# Playwright session leaves an event loop running in its worker, where Django's ORM and
# asyncio.run() then refuse to run.
REALSTACK_UP = $(PY) -c "import socket; [socket.create_connection(a, 2).close() for a in (('127.0.0.1', 5432), ('127.0.0.1', 6379))]" 2>/dev/null

test: bytecode
	@if $(REALSTACK_UP); then \
		$(PY) -m pytest -n 2 --dist loadfile -m "not browser and not realstack"; \
	else \
		$(PY) -m pytest -n 2 --dist loadfile -m "not browser"; \
	fi
	$(PY) -m pytest -n 2 --dist loadfile -m browser
	@$(MAKE) --no-print-directory test-realstack

test-realstack: bytecode
	@if $(REALSTACK_UP); then \
		DATABASE_URL=$(PG_URL) REDIS_URL=$(REDIS) $(PY) -m pytest -n 2 --dist loadfile -m realstack; \
	elif [ -n "$$CI" ]; then \
		echo "CI is set but PostgreSQL (5432) or Redis (6379) is not reachable"; exit 1; \
	else \
		echo "PostgreSQL or Redis not reachable: skipped the real-stack pass (CI would fail)"; \
	fi

bench: install
	$(PY) manage.py bench_engine

# The linters are pinned here, not in requirements.txt: neither the table nor its tests need them.
# django-stubs (its mypy plugin reads frenzy_site.settings) and types-channels type the
# command path; django-stubs 6.1 supports Django 5.2 and mypy < 2.5.
$(VENV)/.lint-installed: $(VENV)/.installed Makefile
	$(PY) -m pip install --quiet ruff==0.17.6 mypy==2.4.1 django-stubs==6.1.2 \
		django-stubs-ext==6.1.2 types-channels==4.3.0.20260518
	touch $@

lint: $(VENV)/.lint-installed
	$(PY) -m ruff check table frenzy_site tests bench
	$(PY) -m mypy
