/**
 * URLs on each domain route's site that must be refused as invalid input before any provider is called
 * (security issue #14): encoded `..` segments that would walk the provider path out of the route's
 * endpoint, and malformed percent escapes. Shared by the unit tests and the hostile-input suite.
 */
export interface RouteTraversal {
  /** The provider whose route the URL targets. */
  route: "github" | "reddit" | "arxiv" | "supadata";
  name: string;
  url: string;
  /** What the refusal must say. */
  problem: RegExp;
}

const DOTS = /URL refused: its path has a "\.\." segment/;
const MALFORMED = /URL refused: its path has a malformed percent escape/;

export const ROUTE_TRAVERSALS: readonly RouteTraversal[] = [
  {
    route: "github",
    name: "a GitHub file path walking to another repository's README",
    url: "https://github.com/x/y/blob/main/..%2F..%2F..%2F..%2Frepos%2Fo%2Fr%2Freadme",
    problem: DOTS,
  },
  {
    route: "github",
    name: "a GitHub file path walking to /user, lower-case escapes",
    url: "https://github.com/x/y/blob/main/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fuser",
    problem: DOTS,
  },
  {
    route: "github",
    name: "a GitHub tree path walking to /user/emails",
    url: "https://github.com/x/y/tree/main/..%2F..%2F..%2F..%2Fuser%2Femails",
    problem: DOTS,
  },
  {
    route: "github",
    name: "a GitHub issue number walking to /user",
    url: "https://github.com/x/y/issues/1%2F..%2F..%2F..%2F..%2Fuser",
    problem: DOTS,
  },
  {
    route: "github",
    name: "a GitHub file path with a malformed escape",
    url: "https://github.com/a/b/blob/main/%E0%A4%A",
    problem: MALFORMED,
  },
  {
    route: "reddit",
    name: "a Reddit thread walking to /api/v1/me",
    url: "https://www.reddit.com/r/rust/comments/abc123/..%2F..%2F..%2F..%2Fapi%2Fv1%2Fme",
    problem: DOTS,
  },
  {
    route: "reddit",
    name: "a Reddit thread with a malformed escape",
    url: "https://www.reddit.com/r/rust/comments/abc123/%E0%A4%A",
    problem: MALFORMED,
  },
  {
    route: "arxiv",
    name: "an arXiv abstract walking to /api/query",
    url: "https://arxiv.org/abs/2401.00001%2F..%2F..%2Fapi%2Fquery",
    problem: DOTS,
  },
  {
    route: "arxiv",
    name: "an arXiv abstract with a malformed escape",
    url: "https://arxiv.org/abs/%E0%A4%A",
    problem: MALFORMED,
  },
  {
    route: "supadata",
    name: "a YouTube short walking to /v1/me",
    url: "https://www.youtube.com/shorts/..%2F..%2Fv1%2Fme",
    problem: DOTS,
  },
  {
    route: "supadata",
    name: "a youtu.be link with a malformed escape",
    url: "https://youtu.be/%E0%A4%A",
    problem: MALFORMED,
  },
];
