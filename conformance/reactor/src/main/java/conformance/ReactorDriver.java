package conformance;

import java.time.Duration;
import java.util.List;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Project Reactor: a parallel flux on the parallel scheduler, flatMap on boundedElastic, zip and a timed window. */
public final class ReactorDriver {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        long sum = Flux.range(0, n).parallel(4).runOn(Schedulers.parallel()).map(i -> (long) i * 31 % 977)
                .sequential().reduce(0L, Long::sum).block();
        System.out.println("sum: " + sum);
        List<Integer> sorted = Flux.range(0, 300)
                .flatMap(i -> Mono.fromCallable(() -> i * 7 % 113).subscribeOn(Schedulers.boundedElastic()))
                .collectSortedList().block();
        System.out.println("flatMap sorted: " + sorted.subList(0, 20) + " ... " + sorted.size());
        Long zipped = Flux.zip(Flux.range(0, n), Flux.range(0, n).publishOn(Schedulers.single()), (a, b) -> (long) a * b)
                .reduce(0L, Long::sum).block();
        System.out.println("zipped: " + zipped);
        Long delayed = Flux.range(0, 20).delayElements(Duration.ofMillis(2)).count().block();
        System.out.println("delayed elements: " + delayed);
        Schedulers.shutdownNow();
    }
}
