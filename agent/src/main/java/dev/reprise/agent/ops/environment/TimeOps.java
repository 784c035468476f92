package dev.reprise.agent.ops.environment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.time.Instant;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.ops.net.SocketOps;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Clocks. The natives are replaced at their call sites, in the program and in the JDK classes
 * that seed or stamp with them; {@code Instant.now()} and the system clocks of java.time meet in
 * {@code Clock.currentInstant()}, hooked once.
 */
public final class TimeOps {
    private static final Op MILLIS = Op.named("time.millis");
    private static final Op NANOS = Op.named("time.nanos");
    private static final Op INSTANT = Op.named("time.instant");
    private static final MethodHandle CURRENT_INSTANT =
            JdkMethods.statik(java.time.Clock.class, "currentInstant", MethodType.methodType(Instant.class));

    private TimeOps() {
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/lang/System", method = "currentTimeMillis", desc = "()J",
            alsoIn = {"java/util/Date", "java/util/Calendar", "java/util/GregorianCalendar", "java/util/JapaneseImperialCalendar",
                    "sun/util/locale/provider/CalendarProviderImpl", "java/text/SimpleDateFormat", "java/util/zip/ZipOutputStream",
                    "java/util/Timer", "java/util/TimerThread", "java/util/Random", "java/util/concurrent/ThreadLocalRandom",
                    "jdk/internal/util/random/RandomSupport", "java/util/SplittableRandom", "java/time/Clock$SystemClock"})
    public static long currentTimeMillis(int site) {
        if (!Rt.claim()) {
            return System.currentTimeMillis();
        }
        Ev ev = Ev.begin(MILLIS, site, 0);
        try {
            return ev.j(ev.live() ? System.currentTimeMillis() : 0);
        } finally {
            ev.end();
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/lang/System", method = "nanoTime", desc = "()J",
            alsoIn = {"java/util/Random", "java/util/concurrent/ThreadLocalRandom",
                    "jdk/internal/util/random/RandomSupport", "java/util/SplittableRandom", SocketOps.PKG, "java/net/"})
    public static long nanoTime(int site) {
        if (!Rt.claim()) {
            return System.nanoTime();
        }
        Ev ev = Ev.begin(NANOS, site, 0);
        try {
            return ev.j(ev.live() ? System.nanoTime() : 0);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/time/Clock", method = "currentInstant", desc = "()Ljava/time/Instant;")
    public static Instant currentInstant() throws Throwable {
        Ev ev = Ev.begin(INSTANT, 0, 0);
        try {
            Instant now = ev.live() ? (Instant) CURRENT_INSTANT.invokeExact() : null;
            long seconds = ev.j(now == null ? 0 : now.getEpochSecond());
            int nanos = ev.i(now == null ? 0 : now.getNano());
            return now != null ? now : Instant.ofEpochSecond(seconds, nanos);
        } finally {
            ev.end();
        }
    }
}
