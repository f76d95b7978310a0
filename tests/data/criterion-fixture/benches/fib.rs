use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use fmtcrit::{fib, sum};

fn bench(c: &mut Criterion) {
    c.bench_function("fib 15", |b| b.iter(|| fib(black_box(15))));
    let mut g = c.benchmark_group("sum");
    for n in [1000u64, 4000].iter() {
        g.bench_with_input(BenchmarkId::from_parameter(n), n, |b, &n| b.iter(|| sum(black_box(n))));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
