package dev.reprise.agent.ops;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The annotated static method is the event of a call no prologue claims (a {@link CallSite} hook,
 * or a method such a hook calls): the build wraps it ({@code instrument/ClaimedTails}) in
 * <pre>
 * if (!Rt.claim()) return (R) LIVE.invokeExact(args...);
 * try { R r = body(args...); Rt.ended(); return r; }
 * catch (Throwable t) { throw Rt.failed(t); }
 * </pre>
 * so the method is the operation alone: it opens its event, codes it and returns. Ending the
 * event, recording what it threw and releasing the claim are the wrapper's, as they are a
 * claimed prologue's.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Claimed {
    /**
     * The static {@code MethodHandle} field of the method's class that makes the call live when
     * the call is not claimed, invoked exactly with the method's own arguments; or empty when the
     * method's first parameter is that handle, invoked with the other arguments.
     */
    String live() default "";

    /**
     * The method's last parameter is the index of the call's site, which a {@link CallSite} hook
     * is given and the live call does not take.
     */
    boolean site() default false;
}
