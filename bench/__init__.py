"""Benchmark helpers shared by ``manage.py bench_engine`` and the engine tests."""
