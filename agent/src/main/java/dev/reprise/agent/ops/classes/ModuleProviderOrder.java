package dev.reprise.agent.ops.classes;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Order of service providers in the JDK's modules. {@code ServiceLoader} lists the providers of
 * modules defined to the boot and platform loaders in the order the JVM registered those modules
 * while booting: the iteration order of the boot configuration's {@code Set.of}, which follows the
 * per-run salt of {@code ImmutableCollections} and identity hashes. Once, before the program
 * starts (this class's initialization in {@code Families.prepare}), each of those loaders' lists
 * is sorted by module name, keeping each module's own declaration order: the same in every run,
 * and within the "not defined" order {@code ServiceLoader} promises. Class-path providers and the
 * boot layer's own catalog need nothing: they follow the class path and module names already.
 */
public final class ModuleProviderOrder {
    static {
        try {
            sort(invoke(Class.forName("jdk.internal.loader.BootLoader", false, null), "getServicesCatalog"));
            sort(invoke(Class.forName("jdk.internal.module.ServicesCatalog", false, null), "getServicesCatalogOrNull",
                    ClassLoader.getPlatformClassLoader()));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot order the JDK's service providers", e);
        }
    }

    private ModuleProviderOrder() {
    }

    private static Object invoke(Class<?> owner, String name, Object... args) throws ReflectiveOperationException {
        for (Method m : owner.getDeclaredMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                m.setAccessible(true);
                return m.invoke(null, args);
            }
        }
        throw new NoSuchMethodException(owner.getName() + "." + name);
    }

    @SuppressWarnings("unchecked")
    private static void sort(Object catalog) throws ReflectiveOperationException {
        if (catalog == null) {
            return;
        }
        Field f = catalog.getClass().getDeclaredField("map");
        f.setAccessible(true);
        Method module = Class.forName("jdk.internal.module.ServicesCatalog$ServiceProvider", false, null)
                .getDeclaredMethod("module");
        module.setAccessible(true);
        Comparator<Object> byModule = Comparator.comparing(p -> moduleName(module, p));
        for (Object providers : ((Map<?, ?>) f.get(catalog)).values()) {
            ((List<Object>) providers).sort(byModule); // a CopyOnWriteArrayList: atomic and stable
        }
    }

    private static String moduleName(Method module, Object provider) {
        try {
            return String.valueOf(((Module) module.invoke(provider)).getName());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
