/** The share scenario runs the chat bench model: written by the chat prepare step. */
import './chat';
