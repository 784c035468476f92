package programs;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

import dev.reprise.agent.ops.Claimed;

/**
 * Claimed methods as the hook classes declare them, for {@code ClaimedTailsTest}: each body
 * stands for the event, each live method for the operation run unclaimed.
 */
public final class ClaimedHooks {
    public static final List<String> RAN = new ArrayList<>();
    private static final MethodHandle TWICE_LIVE = find("twiceLive", int.class, int.class);
    private static final MethodHandle NOTE_LIVE = find("noteLive", void.class, String.class, long.class);

    private ClaimedHooks() {
    }

    private static MethodHandle find(String name, Class<?> returns, Class<?>... params) {
        try {
            return MethodHandles.lookup().findStatic(ClaimedHooks.class, name, MethodType.methodType(returns, params));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Claimed(live = "TWICE_LIVE")
    public static int twice(int x) {
        RAN.add("twice event");
        return -1;
    }

    @Claimed(live = "NOTE_LIVE")
    public static void note(String what, long n) {
        RAN.add("note event");
    }

    @Claimed
    public static double viaParameter(MethodHandle live, double x, Object o) {
        RAN.add("viaParameter event");
        return -1;
    }

    public static int twiceLive(int x) {
        RAN.add("twice live");
        return 2 * x;
    }

    public static void noteLive(String what, long n) {
        RAN.add("note live " + what + " " + n);
    }
}
