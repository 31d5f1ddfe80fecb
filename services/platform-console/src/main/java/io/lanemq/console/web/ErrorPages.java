package io.lanemq.console.web;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.etcd.EtcdException;
import jakarta.servlet.http.HttpServletResponse;
import java.util.NoSuchElementException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/** Failures a user can act on, as pages: not found, etcd unreachable, a stored document the platform rejects. */
@ControllerAdvice
class ErrorPages {
    @ExceptionHandler(NoSuchElementException.class)
    String notFound(NoSuchElementException e, Model model, HttpServletResponse response) {
        return page(404, "Not found", e.getMessage(), model, response);
    }

    @ExceptionHandler(EtcdException.class)
    String etcdDown(EtcdException e, Model model, HttpServletResponse response) {
        return page(503, "etcd did not answer", e.getMessage(), model, response);
    }

    @ExceptionHandler(InvalidPlatformConfigException.class)
    String invalidStored(InvalidPlatformConfigException e, Model model, HttpServletResponse response) {
        return page(500, "The published configuration is invalid", e.getMessage(), model, response);
    }

    @ExceptionHandler(AccessDeniedException.class)
    String forbidden(AccessDeniedException e, Model model, HttpServletResponse response) {
        return page(403, "Not allowed", e.getMessage(), model, response);
    }

    @ExceptionHandler(IllegalArgumentException.class)
    String badRequest(IllegalArgumentException e, Model model, HttpServletResponse response) {
        return page(400, "Bad request", e.getMessage(), model, response);
    }

    private static String page(int status, String title, String message, Model model, HttpServletResponse response) {
        response.setStatus(status);
        model.addAttribute("title", title);
        model.addAttribute("message", message);
        return "problem";
    }
}
