package io.lanemq.console.web;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.HistoryEntry;
import io.lanemq.console.access.Ownership;
import io.lanemq.console.change.Change;
import io.lanemq.console.change.DrainIdc;
import io.lanemq.console.change.IdcState;
import io.lanemq.console.health.HealthScraper;
import java.security.Principal;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The read-only pages: topics (list, search, one topic), the topic form, history, operations, health. */
@Controller
class PagesController {
    private final CurrentConfig current;
    private final ConfigStore store;
    private final Ownership ownership;
    private final HealthScraper health;

    PagesController(CurrentConfig current, ConfigStore store, Ownership ownership, HealthScraper health) {
        this.current = current;
        this.store = store;
        this.ownership = ownership;
        this.health = health;
    }

    @GetMapping("/")
    String home() {
        return "redirect:/topics";
    }

    @GetMapping("/topics")
    String topics(@RequestParam(defaultValue = "") String q, Model model) throws EtcdException, InvalidPlatformConfigException {
        CurrentConfig.Snapshot now = snapshot(model);
        String query = q.strip().toLowerCase(Locale.ROOT);
        List<LogicTopicConfig> topics = now.config() == null ? List.of() : now.config().topics().values().stream()
                .filter(t -> query.isEmpty() || matches(t, query))
                .sorted(Comparator.comparing(LogicTopicConfig::name)).toList();
        model.addAttribute("q", q);
        model.addAttribute("topics", topics);
        model.addAttribute("health", health.configured() ? health.scrape() : null);
        return "topics";
    }

    /** A search finds a topic by its name, a physical topic or a consumer group. */
    private static boolean matches(LogicTopicConfig topic, String query) {
        return topic.name().toLowerCase(Locale.ROOT).contains(query)
                || topic.routes().stream().anyMatch(r -> r.physicalTopic().toLowerCase(Locale.ROOT).contains(query))
                || topic.consumerGroups().keySet().stream().anyMatch(g -> g.toLowerCase(Locale.ROOT).contains(query));
    }

    @GetMapping("/topics/{name}")
    String topic(@PathVariable String name, Model model, Principal principal) throws EtcdException, InvalidPlatformConfigException {
        CurrentConfig.Snapshot now = snapshot(model);
        LogicTopicConfig topic = topicOf(now, name);
        model.addAttribute("topic", topic);
        model.addAttribute("mayEditTopic", ownership.mayApply(principal.getName(), Change.Scope.topic(name)));
        model.addAttribute("editableGroups", topic.consumerGroups().keySet().stream()
                .filter(g -> ownership.mayApply(principal.getName(), Change.Scope.group(name, g))).toList());
        return "topic";
    }

    @GetMapping("/topics/new")
    String newTopic(Model model) throws EtcdException, InvalidPlatformConfigException {
        CurrentConfig.Snapshot now = snapshot(model);
        if (now.config() == null) {
            throw new NoSuchElementException("no configuration is published yet");
        }
        model.addAttribute("form", TopicForm.creating(now.config(), now.revision()));
        return "topic-form";
    }

    @GetMapping("/topics/{name}/edit")
    String editTopic(@PathVariable String name, Model model) throws EtcdException, InvalidPlatformConfigException {
        CurrentConfig.Snapshot now = snapshot(model);
        model.addAttribute("form", TopicForm.editing(now.config(), topicOf(now, name), now.revision()));
        return "topic-form";
    }

    @GetMapping("/history")
    String history(@RequestParam(defaultValue = "1") int page, Model model) throws EtcdException, InvalidPlatformConfigException {
        snapshot(model);
        List<HistoryEntry> entries = new ArrayList<>();
        store.unrecorded().ifPresent(entries::add);
        entries.addAll(store.history());
        HistoryPage shown = HistoryPage.of(entries, page, HISTORY_PAGE);
        model.addAttribute("entries", shown.entries());
        model.addAttribute("page", shown.page());
        model.addAttribute("pages", shown.pages());
        model.addAttribute("paging", shown);
        return "history";
    }

    /** Entries per history page: a busy platform publishes a few a day, so a page is weeks of changes. */
    static final int HISTORY_PAGE = 50;

    @GetMapping("/history/{revision}")
    String entry(@PathVariable long revision, Model model) throws EtcdException, InvalidPlatformConfigException {
        snapshot(model);
        HistoryEntry entry = store.entry(revision).or(() -> unrecorded(revision))
                .orElseThrow(() -> new NoSuchElementException("no revision " + revision + " in the history"));
        model.addAttribute("entry", entry);
        return "history-entry";
    }

    @GetMapping("/operations")
    String operations(Model model) throws EtcdException, InvalidPlatformConfigException {
        CurrentConfig.Snapshot now = snapshot(model);
        List<IdcState> idcs = now.config() == null ? List.of() : IdcState.all(now.config(), now.yaml(), store.describe());
        model.addAttribute("idcs", idcs);
        List<HistoryEntry> history = store.history();
        List<DrainRow> drains = new ArrayList<>();
        for (HistoryEntry drain : history) {
            String idc = DrainIdc.drainedIn(drain);
            if (idc == null) {
                continue;
            }
            String undo = "undo " + drain.change() + " at revision " + drain.revision();
            boolean undone = history.stream().anyMatch(e -> e.revision() > drain.revision() && e.change().equals(undo));
            boolean drainedNow = idcs.stream().anyMatch(s -> s.idc().equals(idc) && s.drained());
            drains.add(new DrainRow(drain, !undone && drainedNow));
        }
        model.addAttribute("drains", drains);
        return "operations";
    }

    /** A drain in the history; undo is offered only while it is in force (not undone, its IDC still takes no sends). */
    record DrainRow(HistoryEntry entry, boolean inForce) {
    }

    /** Where Spring Security sends a request the user's role forbids: the console's own page, not the container's. */
    @RequestMapping("/forbidden")
    String forbidden(Model model, HttpServletResponse response) {
        response.setStatus(403);
        model.addAttribute("title", "Not allowed");
        model.addAttribute("message", "Your role does not allow this action; ask an operator or the topic's owner.");
        return "problem";
    }

    @GetMapping("/health")
    String health(Model model) throws EtcdException, InvalidPlatformConfigException {
        snapshot(model);
        model.addAttribute("health", health.scrape());
        model.addAttribute("healthConfigured", health.configured());
        return "health";
    }

    private java.util.Optional<HistoryEntry> unrecorded(long revision) {
        try {
            return store.unrecorded().filter(e -> e.revision() == revision);
        } catch (EtcdException e) {
            return java.util.Optional.empty();
        }
    }

    private CurrentConfig.Snapshot snapshot(Model model) throws EtcdException, InvalidPlatformConfigException {
        CurrentConfig.Snapshot now = current.read();
        model.addAttribute("config", now.config());
        model.addAttribute("revision", now.revision());
        model.addAttribute("configKey", store.key());
        return now;
    }

    private static LogicTopicConfig topicOf(CurrentConfig.Snapshot now, String name) {
        PlatformConfig config = now.config();
        if (config == null) {
            throw new NoSuchElementException("no configuration is published yet");
        }
        return config.topic(name).orElseThrow(() -> new NoSuchElementException("no logic topic " + name));
    }
}
