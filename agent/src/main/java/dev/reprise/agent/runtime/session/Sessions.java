package dev.reprise.agent.runtime.session;

import java.io.IOException;

import dev.reprise.agent.runtime.events.AloneEnd;
import dev.reprise.agent.runtime.events.Debuggee;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.jdk.JdkFiles;
import dev.reprise.agent.runtime.ordering.Threads;
import dev.reprise.core.config.AgentConfig;
import dev.reprise.core.config.Role;

/** Starts this JVM's session, of its role: the one place that knows both roles and the thread registry. */
public final class Sessions {
    private Sessions() {
    }

    /** Starts the session: from here on, the main thread's intercepted calls are events. */
    public static Session start(AgentConfig config, Thread main) throws IOException {
        JdkFiles.init(System.getProperty("java.home"));
        Session s = config.role() == Role.RECORD ? RecordSession.start(config) : ReplaySession.start(config);
        Debuggee.configure(config.stopAt());
        Rt.install(Threads.BINDER);
        AloneEnd.install(Threads.ALONE_ENDER);
        Session.install(s);
        Threads.registerMain(main);
        s.started();
        return s;
    }
}
