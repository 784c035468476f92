package corpus.threads;

import corpus.Expect;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;

/**
 * Recorded operations reached as dynamic languages reach Java methods, through method handles the
 * program looks up: a clock and an identity hash, and a worker that sleeps a minute through a
 * handle unreflected from {@code Thread.sleep}, interrupted by main. Expected: a replay prints the
 * recording's values, and its worker is interrupted as the recording's was.
 */
@Expect
public final class ReflectiveCalls {
    private ReflectiveCalls() {
    }

    public static void main(String[] args) throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodHandle clock = lookup.findStatic(System.class, "nanoTime", MethodType.methodType(long.class));
        MethodHandle hash = lookup.findVirtual(Object.class, "hashCode", MethodType.methodType(int.class));
        System.out.println("clock " + (long) clock.invokeExact() + ", hash " + (int) hash.invokeExact(new Object()));

        MethodHandle sleep = lookup.unreflect(Thread.class.getMethod("sleep", long.class));
        CountDownLatch started = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            started.countDown();
            try {
                sleep.invokeExact(60_000L);
                System.out.println("worker slept a minute");
            } catch (InterruptedException e) {
                System.out.println("worker interrupted");
            } catch (Throwable t) {
                System.out.println("worker: " + t);
            }
        });
        worker.start();
        started.await();
        worker.interrupt();
        worker.join();
        System.out.println("clock again " + (long) clock.invokeExact());
    }
}
