package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import java.util.Set;

/**
 * A test's class file instrumented as an application class with an empty catalogue, then defined
 * in a loader of its own: the JVM verifies it as it links it, before the test's first call.
 */
final class InstrumentedClasses {
    private InstrumentedClasses() {
    }

    /** {@code classFile}, of class {@code name} (internal name), instrumented and defined; {@code changed} says why it must change. */
    static Class<?> define(String name, byte[] classFile, String changed) {
        Catalogue catalogue = new Catalogue(new CatalogueIndex(List.of(), List.of(), List.of(), Set.of()), Set.of());
        ClassLoader parent = InstrumentedClasses.class.getClassLoader();
        byte[] instrumented = new Transformer(catalogue, null).transform(null, parent, name, null, null, classFile);
        assertNotNull(instrumented, changed);
        return new ClassLoader(parent) {
            Class<?> define() {
                return defineClass(name.replace('/', '.'), instrumented, 0, instrumented.length);
            }
        }.define();
    }
}
