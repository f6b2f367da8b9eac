package toolerrecho_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"
)

// order is the argument of the create-order tool.
type order struct {
	ID    string `json:"id"`
	Qty   int    `json:"qty"`
	Items []struct {
		Qty int `json:"qty"`
	} `json:"items"`
}

// routes registers one route per echo idiom of failing and succeeding.
func routes(e *echo.Echo) {
	e.GET("/orders/:id", func(c echo.Context) error {
		switch c.Param("id") {
		case "42":
			return c.JSON(http.StatusOK, map[string]any{"id": "42", "status": "shipped"})
		case "7":
			return echo.NewHTTPError(http.StatusNotFound, "Order 7 does not exist.")
		case "8":
			return echo.ErrNotFound // the handler's own 404, with echo's sentinel
		case "9":
			return echo.NewHTTPError(http.StatusNotFound, "order 9 not found on "+dbHost+":5432 with key "+stripeKey)
		}
		return conflict
	})
	e.POST("/orders/:id/cancel", func(c echo.Context) error { return conflict })
	e.POST("/orders/:id/refund", func(c echo.Context) error { return fmt.Errorf("refund: %w", conflict) })
	e.POST("/orders", func(c echo.Context) error {
		var o order
		if err := c.Bind(&o); err != nil {
			return err
		}
		return c.JSON(http.StatusCreated, o)
	})
	e.GET("/reports/:id", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusInternalServerError, "pq: connection to "+dbHost+":5432 failed")
	})
	e.GET("/refunds/:id", func(c echo.Context) error {
		return errors.New("refund failed: secret " + stripeKey)
	})
	e.GET("/labels/:id", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusBadRequest, "Label size must be A6.").
			SetInternal(fmt.Errorf("pq: %s rejected at %s:5432", stripeKey, dbHost))
	})
	e.GET("/quotes/:id", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusBadRequest, conflict)
	})
	e.GET("/odd/:id", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusOK, "an error with a success status")
	})
	e.GET("/carriers/:id", func(c echo.Context) error {
		return c.JSON(http.StatusBadGateway, map[string]any{"error": "carrier API at " + dbHost + ":5432 timed out"})
	})
	e.GET("/gateway/:id", func(c echo.Context) error {
		return c.HTML(http.StatusBadGateway, nginxPage)
	})
	e.GET("/panic/:id", func(c echo.Context) error {
		panic(panicValue)
	})
	e.GET("/panic-error/:id", func(c echo.Context) error {
		panic(fmt.Errorf("refund for %s: %w", stripeKey, errors.New("boom")))
	})
	e.GET("/slow/:id", func(c echo.Context) error {
		return fmt.Errorf("quote: %w", context.DeadlineExceeded)
	})
	e.GET("/timeout/:id", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusServiceUnavailable, "Service Unavailable").SetInternal(context.DeadlineExceeded)
	})
	e.POST("/uploads", func(c echo.Context) error {
		c.Request().Body = http.MaxBytesReader(c.Response(), c.Request().Body, 8)
		var o order
		return c.Bind(&o)
	})
	api := e.Group("/api", func(next echo.HandlerFunc) echo.HandlerFunc { return next }) // adds RouteNotFound "/api/*"
	api.GET("/orders/:id", func(c echo.Context) error { return conflict })
	e.RouteNotFound("/legacy/*", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusNotFound, "The legacy API is gone.")
	})
	e.GET("/search", func(c echo.Context) error {
		var limit int
		if err := echo.QueryParamsBinder(c).Int("limit", &limit).BindError(); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]any{"limit": limit})
	})
	e.GET("/tracking/:id", func(c echo.Context) error {
		// An outbound call to a port nothing listens on.
		req, err := http.NewRequestWithContext(c.Request().Context(), http.MethodGet, "http://127.0.0.1:1/track", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadGateway, "The carrier is down.").SetInternal(err)
		}
		_ = resp.Body.Close()
		return c.NoContent(http.StatusOK)
	})
	e.GET("/pages/:id", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusBadRequest, "<html><head><title>Bad page size</title><script>alert(1)</script></head><body><h1>Bad page size</h1></body></html>")
	})
	e.GET("/stream-panic/:id", func(c echo.Context) error {
		c.Response().WriteHeader(http.StatusOK)
		_, _ = c.Response().Write([]byte("partial"))
		c.Response().Flush()
		panic(panicValue)
	})
	e.RouteNotFound("/archive/*", func(c echo.Context) error {
		return c.JSON(http.StatusNotFound, map[string]any{"error": "no such archive in " + dbHost})
	})
	e.GET("/busy/:id", func(c echo.Context) error {
		c.Response().Header().Set("Retry-After", "7")
		return echo.ErrTooManyRequests
	})
}
