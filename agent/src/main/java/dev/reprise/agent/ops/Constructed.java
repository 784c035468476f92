package dev.reprise.agent.ops;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the annotated static method as a hook run by a JDK constructor, once its superclass
 * constructor has returned: the hook takes the new object and the constructor's parameters, and
 * returns nothing. It runs on every construction, on any thread, and must log nothing.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Constructed {
    /** Internal name of the class whose constructor runs the hook. */
    String owner();

    /** JVM descriptor of that constructor. */
    String desc();
}
