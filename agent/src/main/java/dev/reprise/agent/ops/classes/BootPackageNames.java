package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Arrays;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The boot loader's packages as a program lists them ({@code Package.getPackages},
 * {@code ClassLoader.getPackages}; script runtimes list them to find importable Java packages):
 * those with a class loaded, which depends on what Reprise itself loaded, differently while
 * recording and replaying. The names are an event. Reprise's own packages are left out: they are
 * not the program's, and listing one made the JDK read Reprise's jar. A replay defines the
 * recorded packages its JVM has not loaded a class of, from their modules, so the program gets a
 * {@code Package} for every recorded name.
 */
public final class BootPackageNames {
    private static final String BOOT_LOADER = "jdk/internal/loader/BootLoader";
    private static final String OWN = "dev/reprise/";
    private static final Op PACKAGES = Op.named("class.boot.packages");
    private static final Class<?> LOADER = JdkMethods.jdkClass(BOOT_LOADER.replace('/', '.'));
    private static final MethodHandle NAMES = JdkMethods.statik(LOADER, "getSystemPackageNames",
            MethodType.methodType(String[].class));
    private static final MethodHandle LOCATION = JdkMethods.statik(LOADER, "getSystemPackageLocation",
            MethodType.methodType(String.class, String.class));
    /** {@code PackageHelper.definePackage(name, location)}, whose {@code Package} the boot loader keeps. */
    private static final MethodHandle DEFINE = JdkMethods.statik(JdkMethods.jdkClass(LOADER.getName() + "$PackageHelper"),
            "definePackage", MethodType.methodType(Package.class, String.class, String.class))
            .asType(MethodType.methodType(void.class, String.class, String.class));

    private BootPackageNames() {
    }

    /** {@code BootLoader.packages()}'s names (internal form) of the packages with a class loaded. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = BOOT_LOADER, method = "getSystemPackageNames",
            desc = "()[Ljava/lang/String;", alsoIn = "jdk/internal/loader/")
    public static String[] systemPackageNames(int site) throws Throwable {
        if (!Rt.claim()) {
            return programs((String[]) NAMES.invokeExact());
        }
        Ev ev = Ev.begin(PACKAGES, site, 0);
        try {
            String[] live = ev.live() ? programs((String[]) NAMES.invokeExact()) : null;
            String[] names = new String[ev.i(live == null ? 0 : live.length)];
            for (int i = 0; i < names.length; i++) {
                names[i] = ev.s(live == null ? null : live[i]);
                if (live == null && (String) LOCATION.invokeExact(names[i]) == null) {
                    define(names[i]);
                }
            }
            return names;
        } finally {
            ev.end();
        }
    }

    /** Without Reprise's own; a plain loop, since JDK code such as streams would make events here. */
    private static String[] programs(String[] names) {
        String[] program = new String[names.length];
        int n = 0;
        for (String name : names) {
            if (!name.startsWith(OWN)) {
                program[n++] = name;
            }
        }
        return Arrays.copyOf(program, n);
    }

    /** Defines a recorded package of a JDK module the replay has not loaded a class of. */
    private static void define(String internalName) throws Throwable {
        String name = internalName.replace('/', '.');
        for (Module m : ModuleLayer.boot().modules()) {
            if (m.getClassLoader() == null && m.getPackages().contains(name)) {
                DEFINE.invokeExact(name, "jrt:/" + m.getName());
                return;
            }
        }
    }
}
