package io.lanemq.console.web;

import io.lanemq.config.ConfigProblem;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.console.change.Change;
import io.lanemq.console.change.DrainIdc;
import io.lanemq.console.change.SetMode;
import io.lanemq.console.change.SetRateLimit;
import io.lanemq.console.change.SetWeights;
import io.lanemq.console.edit.ConfigEditor;
import io.lanemq.console.edit.ConflictException;
import io.lanemq.console.edit.Proposal;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.security.Principal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Every change: an action (POST, carrying the revision its page showed) makes a {@link Proposal} kept in the session,
 * the preview page shows its diff and asks why, publish writes it. Invalid changes go back to their page with each
 * problem by key; a conflict is shown, never overwritten.
 */
@Controller
class ChangesController {
    private static final String PROPOSALS = "lanemq.console.proposals";

    private final ConfigEditor editor;

    ChangesController(ConfigEditor editor) {
        this.editor = editor;
    }

    @PostMapping("/changes/weights")
    String weights(@RequestParam String topic, @RequestParam long baseRevision, @RequestParam Map<String, String> params,
                   Principal principal, HttpSession session, RedirectAttributes redirect, Model model,
                   HttpServletResponse response) throws EtcdException {
        Map<String, Integer> weights = new LinkedHashMap<>();
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (p.getKey().startsWith("weight.")) {
                try {
                    weights.put(p.getKey().substring("weight.".length()), Integer.parseInt(p.getValue().strip()));
                } catch (NumberFormatException e) {
                    redirect.addFlashAttribute("problems", List.of(new ConfigProblem("/topics/" + topic.replace("~", "~0").replace("/", "~1") + "/routes",
                            "weight of " + p.getKey().substring(7) + " must be a whole number, was '" + p.getValue() + "'")));
                    return "redirect:/topics/" + topic;
                }
            }
        }
        return propose(new SetWeights(topic, weights), baseRevision, "/topics/" + topic, principal, session, redirect, model, response);
    }

    @PostMapping("/changes/mode")
    String mode(@RequestParam String topic, @RequestParam String group, @RequestParam ConsumptionMode mode,
                @RequestParam long baseRevision, Principal principal, HttpSession session, RedirectAttributes redirect,
                Model model, HttpServletResponse response) throws EtcdException {
        return propose(new SetMode(topic, group, mode), baseRevision, "/topics/" + topic, principal, session, redirect, model, response);
    }

    @PostMapping("/changes/rate-limit")
    String rateLimit(@RequestParam String topic, @RequestParam int perSecond, @RequestParam long baseRevision,
                     Principal principal, HttpSession session, RedirectAttributes redirect, Model model,
                     HttpServletResponse response) throws EtcdException {
        return propose(new SetRateLimit(topic, perSecond), baseRevision, "/topics/" + topic, principal, session, redirect, model, response);
    }

    @PostMapping("/changes/topic")
    String topic(@ModelAttribute("form") TopicForm form, Principal principal, HttpSession session, Model model,
                 HttpServletResponse response) throws EtcdException {
        try {
            Proposal proposal = editor.propose(principal.getName(), form.getBaseRevision(), form.toChange());
            return previewOf(proposal, session);
        } catch (InvalidPlatformConfigException e) {
            Map<String, String> fieldErrors = new HashMap<>();
            List<String> otherErrors = new ArrayList<>();
            for (ConfigProblem problem : e.problems()) {
                String field = form.fieldOf(problem);
                if (field == null) {
                    otherErrors.add(problem.toString());
                } else {
                    fieldErrors.merge(field, problem.key() + ": " + problem.message(), (a, b) -> a + "; " + b);
                }
            }
            model.addAttribute("fieldErrors", fieldErrors);
            model.addAttribute("otherErrors", otherErrors);
            model.addAttribute("revision", form.getBaseRevision());
            response.setStatus(422);
            return "topic-form";
        } catch (ConflictException e) {
            return conflict(e, model, response);
        }
    }

    @PostMapping("/operations/drain")
    String drain(@RequestParam String idc, @RequestParam long baseRevision, Principal principal, HttpSession session,
                 RedirectAttributes redirect, Model model, HttpServletResponse response) throws EtcdException {
        return propose(new DrainIdc(idc), baseRevision, "/operations", principal, session, redirect, model, response);
    }

    @PostMapping("/operations/undo")
    String undo(@RequestParam long revision, @RequestParam long baseRevision, Principal principal, HttpSession session,
                RedirectAttributes redirect, Model model, HttpServletResponse response) throws EtcdException {
        try {
            return propose(editor.undoOf(revision), baseRevision, "/operations", principal, session, redirect, model, response);
        } catch (InvalidPlatformConfigException e) {
            redirect.addFlashAttribute("problems", e.problems());
            return "redirect:/operations";
        }
    }

    @PostMapping("/history/{revision}/rollback")
    String rollback(@PathVariable long revision, @RequestParam long baseRevision, Principal principal, HttpSession session,
                    RedirectAttributes redirect, Model model, HttpServletResponse response) throws EtcdException {
        try {
            return propose(editor.rollbackTo(revision), baseRevision, "/history/" + revision, principal, session, redirect, model, response);
        } catch (InvalidPlatformConfigException e) {
            redirect.addFlashAttribute("problems", e.problems());
            return "redirect:/history/" + revision;
        }
    }

    @GetMapping("/changes/{id}")
    String preview(@PathVariable String id, HttpSession session, Model model) {
        model.addAttribute("proposal", proposal(session, id));
        return "preview";
    }

    @PostMapping("/changes/{id}/publish")
    String publish(@PathVariable String id, @RequestParam(defaultValue = "") String comment, Principal principal,
                   HttpSession session, Model model, RedirectAttributes redirect, HttpServletResponse response) throws EtcdException {
        Proposal proposal = proposal(session, id);
        try {
            long revision = editor.publish(principal.getName(), proposal, comment);
            proposals(session).remove(id);
            redirect.addFlashAttribute("published", revision);
            return "redirect:/history";
        } catch (IllegalArgumentException e) {
            model.addAttribute("proposal", proposal);
            model.addAttribute("commentError", e.getMessage());
            response.setStatus(422);
            return "preview";
        } catch (ConflictException e) {
            model.addAttribute("again", id);
            model.addAttribute("comment", comment);
            return conflict(e, model, response);
        }
    }

    /** After a conflict: the same change on the revision published since, previewed again with the comment kept. */
    @PostMapping("/changes/{id}/again")
    String again(@PathVariable String id, @RequestParam(defaultValue = "") String comment, Principal principal,
                 HttpSession session, RedirectAttributes redirect, Model model, HttpServletResponse response) throws EtcdException {
        Proposal proposal = proposal(session, id);
        proposals(session).remove(id);
        redirect.addFlashAttribute("comment", comment);
        try {
            return previewOf(editor.proposeAgain(principal.getName(), proposal), session);
        } catch (InvalidPlatformConfigException e) {
            redirect.addFlashAttribute("problems", e.problems());
            return "redirect:/topics";
        } catch (ConflictException e) {
            return conflict(e, model, response);
        }
    }

    private String propose(Change change, long baseRevision, String backTo, Principal principal, HttpSession session,
                           RedirectAttributes redirect, Model model, HttpServletResponse response) throws EtcdException {
        try {
            return previewOf(editor.propose(principal.getName(), baseRevision, change), session);
        } catch (InvalidPlatformConfigException e) {
            redirect.addFlashAttribute("problems", e.problems());
            return "redirect:" + backTo;
        } catch (ConflictException e) {
            return conflict(e, model, response);
        }
    }

    private String previewOf(Proposal proposal, HttpSession session) {
        proposals(session).put(proposal.id(), proposal);
        return "redirect:/changes/" + proposal.id();
    }

    private static String conflict(ConflictException e, Model model, HttpServletResponse response) {
        model.addAttribute("conflict", e);
        response.setStatus(409);
        return "conflict";
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Proposal> proposals(HttpSession session) {
        synchronized (session) {
            Map<String, Proposal> proposals = (Map<String, Proposal>) session.getAttribute(PROPOSALS);
            if (proposals == null) {
                proposals = new ConcurrentHashMap<>();
                session.setAttribute(PROPOSALS, proposals);
            }
            return proposals;
        }
    }

    private static Proposal proposal(HttpSession session, String id) {
        Proposal proposal = proposals(session).get(id);
        if (proposal == null) {
            throw new NoSuchElementException("no change " + id + " waits to be published in this session");
        }
        return proposal;
    }
}
