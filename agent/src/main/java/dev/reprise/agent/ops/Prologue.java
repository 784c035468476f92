package dev.reprise.agent.ops;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the annotated static method as the hook of a JDK method: a prologue added to the
 * target calls the hook when {@code Rt.claim()} says the call is an event. The hook takes the
 * receiver (for instance methods) and the target's parameters, and returns the target's type.
 * The hook runs the real method, when it must, through a {@code MethodHandle}: that nested call
 * passes the prologue because the thread's claim is held.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Prologue {
    /** Internal name of the class declaring the target, e.g. {@code java/io/FileInputStream}. */
    String owner();

    String method();

    /** JVM descriptor of the target. */
    String desc();

    /** The target exists only in some JDK versions: skip it quietly where it is absent. */
    boolean optional() default false;

    /** How the prologue calls the hook. */
    enum Kind {
        /**
         * {@code if (Rt.claim()) return Hook.m(...)}: the hook is the call, an event. The prologue
         * also ends the event the hook opened, records what it threw and releases the claim
         * ({@code Rt.ended}, {@code Rt.failed}), so a hook writes no try, catch or finally for them.
         */
        CLAIMED,
        /**
         * The hook runs on every call from a recorded thread, inside events too, without a claim: it
         * logs nothing and must not call the target (which would come back to it). For per-thread
         * state that must not depend on where it is first computed.
         */
        ANY_DEPTH,
        /**
         * {@code if (Rt.insideEvent()) return Hook.m(...)}, then the target's body: for JDK code
         * whose body changes state the program shares when Reprise's own live work inside an
         * event calls it, which no event would record (a pool's compensation for a blocked
         * worker). Called at depth 0, the body runs and its actions are events as usual.
         */
        INSIDE_EVENT,
        /**
         * {@code if (Rt.claim()) Hook.m(...)}, then the target's body: the hook makes the call's
         * event, releases the claim and returns, and the body runs live and unclaimed, its own
         * operations events of their own (the shutdown that {@code Runtime.exit} runs).
         */
        BEFORE,
        /**
         * {@code Hook.m(...)} on every call, from any thread, recorded or not, then the target's
         * body: the hook logs nothing and only notes what the JVM's own threads do on the program's
         * behalf (an agent attached to it).
         */
        ANY_THREAD,
        /**
         * {@code if (Rt.unrecorded() && Hook.m(...)) return;} then the target's body, which must
         * return nothing: for JDK code that a thread Reprise does not record runs on the program's
         * objects (the finalizer's and the cleaners' threads). The hook returns whether it ran the
         * call itself, or withheld it; false lets the body run as it would have.
         */
        UNRECORDED
    }

    Kind kind() default Kind.CLAIMED;
}
