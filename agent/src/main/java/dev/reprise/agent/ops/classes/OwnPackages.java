package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Arrays;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.JdkMethods;

/**
 * Keeps Reprise's own packages out of the boot loader's packages as a program lists them
 * ({@code Package.getPackages}, {@code ClassLoader.getPackages}). They are not the program's:
 * which of them have classes loaded differs between a recording and its replays, and listing one
 * defines its {@code Package} from the agent's jar, a file operation at a moment that differs too.
 */
public final class OwnPackages {
    private static final String BOOT_LOADER = "jdk/internal/loader/BootLoader";
    private static final String OWN = "dev/reprise/";
    private static final MethodHandle NAMES = JdkMethods.statik(JdkMethods.jdkClass(BOOT_LOADER.replace('/', '.')),
            "getSystemPackageNames", MethodType.methodType(String[].class));

    private OwnPackages() {
    }

    /** {@code BootLoader.packages()}'s names of the packages with a class the boot loader loaded. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = BOOT_LOADER, method = "getSystemPackageNames",
            desc = "()[Ljava/lang/String;", alsoIn = "jdk/internal/loader/")
    public static String[] systemPackageNames(int site) throws Throwable {
        String[] names = (String[]) NAMES.invokeExact();
        // A plain loop: JDK code such as streams would make events of its own here.
        String[] program = new String[names.length];
        int n = 0;
        for (String name : names) {
            if (!name.startsWith(OWN)) {
                program[n++] = name;
            }
        }
        return Arrays.copyOf(program, n);
    }
}
