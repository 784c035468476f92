package corpus.threads;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;

/**
 * Recorded operations reached as dynamic languages reach Java methods: through method handles the
 * program looks up, and through {@code Method.invoke}. Clocks and identity hashes, and two workers
 * that sleep a minute, one through a handle and one through reflection with an {@code Integer}
 * for the {@code long} (which reflection widens), each interrupted by main. Expected: a replay
 * prints the recording's values, and its workers are interrupted as the recording's were.
 */
public final class ReflectiveCalls {
    private ReflectiveCalls() {
    }

    public static void main(String[] args) throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodHandle clock = lookup.findStatic(System.class, "nanoTime", MethodType.methodType(long.class));
        MethodHandle hash = lookup.findVirtual(Object.class, "hashCode", MethodType.methodType(int.class));
        Method millis = System.class.getMethod("currentTimeMillis");
        Method identity = System.class.getMethod("identityHashCode", Object.class);
        System.out.println("clock " + (long) clock.invokeExact() + ", hash " + (int) hash.invokeExact(new Object())
                + ", millis " + millis.invoke(null) + ", identity " + identity.invoke(null, new Object()));

        MethodHandle sleepHandle = lookup.unreflect(Thread.class.getMethod("sleep", long.class));
        Method sleep = Thread.class.getMethod("sleep", long.class);
        try {
            sleep.invoke(null, "a minute");
        } catch (IllegalArgumentException e) {
            System.out.println("sleep(String): " + e.getClass().getSimpleName());
        }
        CountDownLatch started = new CountDownLatch(2);
        Thread byHandle = new Thread(() -> {
            started.countDown();
            try {
                sleepHandle.invokeExact(60_000L);
                System.out.println("handle worker slept a minute");
            } catch (InterruptedException e) {
                System.out.println("handle worker interrupted");
            } catch (Throwable t) {
                System.out.println("handle worker: " + t);
            }
        });
        Thread byReflection = new Thread(() -> {
            started.countDown();
            try {
                sleep.invoke(null, 60_000);
                System.out.println("reflection worker slept a minute");
            } catch (InvocationTargetException e) {
                System.out.println("reflection worker: " + e.getCause().getClass().getSimpleName());
            } catch (IllegalAccessException e) {
                System.out.println("reflection worker: " + e);
            }
        });
        byHandle.start();
        byReflection.start();
        started.await();
        byHandle.interrupt();
        byReflection.interrupt();
        byHandle.join();
        byReflection.join();
        System.out.println("clock again " + (long) clock.invokeExact());
    }
}
