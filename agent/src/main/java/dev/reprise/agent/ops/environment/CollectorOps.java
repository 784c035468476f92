package dev.reprise.agent.ops.environment;

import java.lang.management.GarbageCollectorMXBean;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;

/**
 * The garbage collectors' counts and accumulated times ({@code GarbageCollectorMXBean}): a
 * program's metrics report them and its health checks branch on them, and a replay's collector
 * runs at other moments. The bean's implementation reads them through natives, which carry no
 * prologue, so the program's calls are hooked, through either interface it may name.
 */
public final class CollectorOps {
    private static final Op COLLECTOR = Op.named("management.gc");

    private CollectorOps() {
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/management/GarbageCollectorMXBean",
            method = "getCollectionCount", desc = "()J")
    public static long count(GarbageCollectorMXBean bean, int site) {
        return figure(bean, site, 0);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/management/GarbageCollectorMXBean",
            method = "getCollectionTime", desc = "()J")
    public static long time(GarbageCollectorMXBean bean, int site) {
        return figure(bean, site, 1);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "com/sun/management/GarbageCollectorMXBean",
            method = "getCollectionCount", desc = "()J")
    public static long extendedCount(GarbageCollectorMXBean bean, int site) {
        return figure(bean, site, 0);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "com/sun/management/GarbageCollectorMXBean",
            method = "getCollectionTime", desc = "()J")
    public static long extendedTime(GarbageCollectorMXBean bean, int site) {
        return figure(bean, site, 1);
    }

    private static long figure(GarbageCollectorMXBean bean, int site, int which) {
        if (!Rt.claim()) {
            return live(bean, which);
        }
        Ev ev = Ev.begin(COLLECTOR, site, which);
        try {
            return ev.j(ev.live() ? live(bean, which) : 0);
        } finally {
            ev.end();
        }
    }

    private static long live(GarbageCollectorMXBean bean, int which) {
        return which == 0 ? bean.getCollectionCount() : bean.getCollectionTime();
    }
}
