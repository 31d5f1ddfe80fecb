package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Remembers every call with the monotonic time it arrived and the thread it came from. */
final class RecordingListener implements ConfigListener {
    record Call(PlatformConfig change, InvalidConfigurationException rejection, long nanos, String thread) {
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();

    @Override
    public void onChange(PlatformConfig next) {
        calls.add(new Call(next, null, System.nanoTime(), Thread.currentThread().getName()));
    }

    @Override
    public void onRejected(InvalidConfigurationException reason) {
        calls.add(new Call(null, reason, System.nanoTime(), Thread.currentThread().getName()));
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    int count() {
        return calls.size();
    }

    Call last() {
        return calls.get(calls.size() - 1);
    }

    List<PlatformConfig> changes() {
        List<PlatformConfig> out = new ArrayList<>();
        calls.forEach(c -> {
            if (c.change() != null) {
                out.add(c.change());
            }
        });
        return out;
    }

    List<InvalidConfigurationException> rejections() {
        List<InvalidConfigurationException> out = new ArrayList<>();
        calls.forEach(c -> {
            if (c.rejection() != null) {
                out.add(c.rejection());
            }
        });
        return out;
    }
}
