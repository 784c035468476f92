package dev.reprise.agent.runtime.events;

import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Under {@code replay --chaos}: one thread's random yields and short pauses before its replayed
 * events, which shake the threads' relative timing so that only the recorded order can hold.
 *
 * <p>A thread's first {@value #DENSE} events are perturbed at a fixed rate; past that, event
 * {@code k} is a candidate with chance {@code DENSE / k}, so a thread that replays a million events
 * (a spin loop) takes a few thousand perturbations rather than a quarter of a million. That bound
 * is what keeps a chaos replay usable on a busy machine: there a yield or a pause costs the thread
 * a whole time slice, and under a total order every other thread waits out that slice too.
 */
public final class Chaos {
    private static final long DENSE = 1024;

    private final SplittableRandom random;
    private long events;

    public Chaos(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Before a replayed event: a pause of up to 0.2 ms (1 in 16) or a yield (3 in 16), or nothing. */
    void beforeEvent() {
        long k = ++events;
        if (k > DENSE && random.nextLong(k) >= DENSE) {
            return;
        }
        int dice = random.nextInt(16);
        if (dice == 0) {
            LockSupport.parkNanos(random.nextInt(200_000));
            LockSupport.unpark(Thread.currentThread()); // gives back the permit the park may have taken (Waiter.givePermitBack)
        } else if (dice < 4) {
            Thread.yield();
        }
    }
}
