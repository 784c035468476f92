package dev.reprise.agent.ops;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the annotated static method as the replacement of every call to a method that cannot
 * carry a prologue (a native or intrinsic such as {@code System.nanoTime}). Calls are rewritten
 * in application classes and in the JDK classes named by {@link #alsoIn()}. The hook takes the
 * receiver first for instance calls.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CallSite {
    enum Kind {
        /** {@code invokestatic owner.method}. */
        STATIC,
        /** {@code invokevirtual} or {@code invokeinterface} of the method on any class (owner "*") or on owner. */
        VIRTUAL,
        /** {@code invokespecial owner.method}: a {@code super.method()} call. */
        SPECIAL,
        /** {@code getstatic owner.method} of a field, {@code desc} its type: the hook takes nothing. */
        GETSTATIC
    }

    Kind kind();

    /** Internal name of the declaring class, or {@code *} for any class (VIRTUAL only). */
    String owner();

    String method();

    String desc();

    /**
     * JDK classes (internal names) whose calls are rewritten too, by every hook; or JDK packages
     * (ending in {@code /}, subpackages included) in whose classes this hook alone rewrites calls.
     */
    String[] alsoIn() default {};

    /**
     * Rewritten in application classes only, not in the JDK classes other hooks name: the JDK's
     * own calls are its internal business, made at moments that differ between runs.
     */
    boolean programOnly() default false;

    /**
     * Also reached through a program's subclass of {@code owner} (VIRTUAL only): an application
     * class that extends it gets an override of the method that calls the hook, whatever type a
     * call names ({@code instrument/InheritedHookOverrides}). The hook must then run the JDK's
     * method non-virtually when it has claimed the call, or it would run a program's override of
     * it inside the event.
     */
    boolean inherited() default false;
}
