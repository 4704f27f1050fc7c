// Entry of dist/tandem-network.iife.js: only the fetch/XHR wrappers, for injection into the
// page's MAIN world. A content script's own wrappers cannot see the page's requests (isolated
// world); these announce them with DOM events the content script's monitor receives.
import { installNetworkTracker } from './stability/network';

installNetworkTracker(window);
