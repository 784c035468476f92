package corpus.threads;

import corpus.Expect;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

/**
 * Recorded operations reached through method references, which a lambda's class calls, not the
 * program's own: clocks and identity hashes, and a worker's sleep that main interrupts (a JUnit
 * suite's test does this through commons-lang's {@code ThreadUtils.sleep}). Expected: a replay
 * prints the recording's values, and its worker is interrupted as the recording's was.
 */
@Expect
public final class MethodReferences {
    private MethodReferences() {
    }

    interface Sleep {
        void sleep(long millis) throws InterruptedException;
    }

    public static void main(String[] args) throws InterruptedException {
        LongSupplier clock = System::nanoTime;
        LongSupplier wall = System::currentTimeMillis;
        ToIntFunction<Object> identity = System::identityHashCode;
        System.out.println("clock " + clock.getAsLong() + ", wall " + wall.getAsLong() + ", identity "
                + identity.applyAsInt(new Object()));
        Sleep sleep = Thread::sleep;
        CountDownLatch started = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            started.countDown();
            try {
                sleep.sleep(60_000);
                System.out.println("worker slept a minute");
            } catch (InterruptedException e) {
                System.out.println("worker interrupted");
            }
        });
        worker.start();
        started.await();
        worker.interrupt();
        worker.join();
        System.out.println("clock again " + clock.getAsLong());
    }
}
