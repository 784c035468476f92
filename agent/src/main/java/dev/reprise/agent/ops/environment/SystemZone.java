package dev.reprise.agent.ops.environment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The operating system's time zone, which the JDK asks for the first time the program needs the
 * default zone and has not set {@code user.timezone} itself ({@code TimeZone.setDefaultZone}):
 * its zone ID ({@code TZ}, {@code /etc/localtime}) and, for an ID the JDK does not know, its
 * offset from GMT. Both are read as the program starts ({@link StartupState}) and recorded; the
 * JDK's calls get those answers, so a replay has the recording's zone on any machine, and the
 * default zone is computed when the program first asks, as in a plain run: a program that sets
 * {@code user.timezone} first gets its zone, and until then the property is unset.
 */
public final class SystemZone {
    private static final String ZONE = "java/util/TimeZone";
    private static final MethodHandle ID_LIVE = JdkMethods.statik(java.util.TimeZone.class, "getSystemTimeZoneID",
            MethodType.methodType(String.class, String.class));
    private static final MethodHandle GMT_OFFSET_LIVE = JdkMethods.statik(java.util.TimeZone.class,
            "getSystemGMTOffsetID", MethodType.methodType(String.class));
    /** Set once at start-up, before the program runs; read by the program's threads after their start. */
    private static String id;
    private static String gmtOffset;

    private SystemZone() {
    }

    /** Start-up: the system's zone, live when recording, from the recording on replay. */
    static void code(Ev ev) throws Throwable {
        id = ev.s(ev.live() ? (String) ID_LIVE.invokeExact(System.getProperty("java.home")) : null);
        gmtOffset = ev.s(ev.live() ? (String) GMT_OFFSET_LIVE.invokeExact() : null);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = ZONE, method = "getSystemTimeZoneID",
            desc = "(Ljava/lang/String;)Ljava/lang/String;", alsoIn = ZONE)
    public static String systemZoneId(String javaHome) {
        return id;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = ZONE, method = "getSystemGMTOffsetID", desc = "()Ljava/lang/String;",
            alsoIn = ZONE)
    public static String systemGmtOffsetId() {
        return gmtOffset;
    }
}
