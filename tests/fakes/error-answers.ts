/**
 * Providers' documented error answers, as scenarios of the fake server (status and body copied from the
 * provider's own material, checked 2026-12-01): `fake.setScenario("tavily", TAVILY_PLAN_LIMIT)`.
 */
import type { FakeScenario } from "./provider-server";

/**
 * Tavily's quota answers: the body is `{"detail": {"error": …}}` (tavily-ai/tavily-python `tavily/tavily.py`
 * `_handle_error_response`), the messages help.tavily.com/articles/8645538886-understanding-http-errors.
 */
export const TAVILY_PLAN_LIMIT: FakeScenario = {
  status: 432,
  errorBody: {
    detail: {
      error:
        "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com",
    },
  },
};
export const TAVILY_PAYGO_LIMIT: FakeScenario = {
  status: 433,
  errorBody: {
    detail: {
      error:
        "This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard",
    },
  },
};

/**
 * Linkup's answers `{statusCode, error: {code, message, details}}`: docs.linkup.so/pages/documentation/
 * platform/errors and LinkupPlatform/linkup-python-sdk `tests/unit/client_test.py` (the bodies).
 */
const linkupError = (statusCode: number, code: string, message: string): FakeScenario => ({
  status: statusCode,
  errorBody: { statusCode, error: { code, message, details: [] } },
});
export const LINKUP_PAYMENT_REQUIRED = linkupError(402, "PAYMENT_REQUIRED", "Payment required");
export const LINKUP_IP_NOT_WHITELISTED = linkupError(
  403,
  "IP_NOT_WHITELISTED",
  "IP address 192.0.2.1 is not whitelisted",
);
export const LINKUP_INSUFFICIENT_CREDITS = linkupError(
  429,
  "INSUFFICIENT_FUNDS_CREDITS",
  "You do not have enough credits to perform this request.",
);
export const LINKUP_VALIDATION_ERROR: FakeScenario = {
  status: 400,
  errorBody: {
    statusCode: 400,
    error: {
      code: "VALIDATION_ERROR",
      message: "Validation failed",
      details: [
        {
          field: "outputType",
          message: "outputType must be one of the following values: sourcedAnswer, searchResults, structured",
        },
      ],
    },
  },
};
