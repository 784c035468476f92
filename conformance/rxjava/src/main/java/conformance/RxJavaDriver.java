package conformance;

import java.util.List;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.schedulers.Schedulers;

/** RxJava 3: a parallel flowable on the computation scheduler, flatMap across the io scheduler, merged and reduced. */
public final class RxJavaDriver {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        long sum = Flowable.range(0, n).parallel(4).runOn(Schedulers.computation())
                .map(i -> (long) i * i % 1009).sequential().reduce(0L, Long::sum).blockingGet();
        System.out.println("sum of squares mod 1009: " + sum);
        List<Integer> sorted = Observable.range(0, 200)
                .flatMap(i -> Observable.just(i).subscribeOn(Schedulers.io()).map(x -> x * 3 % 101))
                .toSortedList().blockingGet();
        System.out.println("flatMap sorted: " + sorted.subList(0, 20) + " ... " + sorted.size());
        long buffers = Flowable.range(0, n).observeOn(Schedulers.single()).buffer(64).count().blockingGet();
        System.out.println("buffers: " + buffers);
        Schedulers.shutdown();
    }
}
